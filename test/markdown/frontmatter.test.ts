import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../src/domain/markdown/frontmatter.js';

describe('parseFrontmatter', () => {
  it('folds the newest nested metadata form over the top level', () => {
    const text = [
      '---',
      'name: user-role',
      'description: "User is a senior backend engineer, new to React"',
      'metadata:',
      '  node_type: memory',
      '  type: user',
      '  originSessionId: 1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f',
      '  modified: 2026-11-19T09:12:44.120Z',
      '---',
      '# Body',
      '',
    ].join('\n');
    const fm = parseFrontmatter(text);
    expect(fm.error).toBeNull();
    expect(fm.data).toEqual({
      name: 'user-role',
      description: 'User is a senior backend engineer, new to React',
      node_type: 'memory',
      type: 'user',
      originSessionId: '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f',
      modified: '2026-11-19T09:12:44.120Z',
    });
    expect(fm.body).toBe('# Body\n');
  });

  it('reads the old flat form', () => {
    const fm = parseFrontmatter('---\nname: a\ntype: feedback\noriginSessionId: s1\n---\nbody');
    expect(fm.data).toEqual({ name: 'a', type: 'feedback', originSessionId: 's1' });
    expect(fm.body).toBe('body');
  });

  it('lets nested metadata win over top-level keys', () => {
    const fm = parseFrontmatter('---\ntype: project\nmetadata:\n  type: reference\n---\n');
    expect(fm.data.type).toBe('reference');
  });

  it('tolerates `metadata: ` with a trailing space and empty metadata', () => {
    const nested = parseFrontmatter('---\nname: x\nmetadata: \n  type: user\n---\n');
    expect(nested.data).toEqual({ name: 'x', type: 'user' });
    const empty = parseFrontmatter('---\nname: x\nmetadata: \n---\n');
    expect(empty.error).toBeNull();
    expect(empty.data).toEqual({ name: 'x' });
  });

  it('keeps an unquoted date a string', () => {
    const fm = parseFrontmatter('---\nmodified: 2026-11-19T09:12:44.120Z\ncreated: 2026-11-19\n---\n');
    expect(fm.data.modified).toBe('2026-11-19T09:12:44.120Z');
    expect(fm.data.created).toBe('2026-11-19');
  });

  it('falls back to a line parser when values contain unquoted `: `', () => {
    const text = [
      '---',
      'name: deploy-notes',
      'description: Deploys: always run migrations first',
      "quoted: 'single: quoted'",
      'metadata:',
      '  type: project',
      '  note: see: the runbook',
      '---',
      'body',
    ].join('\n');
    const fm = parseFrontmatter(text);
    expect(fm.error).not.toBeNull();
    expect(fm.data).toEqual({
      name: 'deploy-notes',
      description: 'Deploys: always run migrations first',
      quoted: 'single: quoted',
      type: 'project',
      note: 'see: the runbook',
    });
    expect(fm.body).toBe('body');
  });

  it('returns the whole text as body without frontmatter', () => {
    for (const text of ['# Title\n\ntext', '', 'no --- here', '---\nname: never closed\n']) {
      const fm = parseFrontmatter(text);
      expect(fm).toEqual({ data: {}, body: text, error: null });
    }
  });

  it('ignores a leading BOM and tolerates CRLF', () => {
    const fm = parseFrontmatter('\uFEFF---\r\nname: crlf\r\nmetadata:\r\n  type: user\r\n---\r\nbody\r\n');
    expect(fm.data).toEqual({ name: 'crlf', type: 'user' });
    expect(fm.body).toBe('body\r\n');
  });

  it('does not blow up on an alias bomb', () => {
    const lines = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    lines.push('name: bomb', '---', 'body');
    const fm = parseFrontmatter(lines.join('\n'));
    expect(fm.error).toMatch(/alias/i);
    expect(fm.data.name).toBe('bomb');
    expect(fm.body).toBe('body');
  });

  it('isolates invalid YAML to the file and never throws', () => {
    const bad = parseFrontmatter('---\nname: [unclosed\n\tdescription: x\n---\nbody');
    expect(bad.error).not.toBeNull();
    expect(bad.body).toBe('body');
    const good = parseFrontmatter('---\nname: fine\n---\n');
    expect(good).toEqual({ data: { name: 'fine' }, body: '', error: null });
  });

  it('treats a non-mapping block as an error without fields', () => {
    const fm = parseFrontmatter('---\n- a\n- b\n---\nbody');
    expect(fm.error).not.toBeNull();
    expect(fm.data).toEqual({});
  });

  it('keeps a __proto__ key as data', () => {
    const fm = parseFrontmatter('---\n__proto__: polluted\ndesc: a: b\n---\n');
    expect(Object.getPrototypeOf(fm.data)).toBe(Object.prototype);
    expect(Object.hasOwn(fm.data, '__proto__')).toBe(true);
    expect(fm.data.desc).toBe('a: b');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
