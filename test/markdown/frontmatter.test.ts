import { describe, expect, it } from 'vitest';
import { MAX_YAML_CHARS, MAX_YAML_DEPTH, parseFrontmatter } from '../../src/domain/markdown/frontmatter.js';
import { nestsDeeperThan } from '../../src/domain/markdown/yamlNesting.js';

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

  it('reads a block nested past the depth bound line by line, never with the YAML parser', () => {
    const deep = (d: number) => `---\nname: ${'['.repeat(d)}x${']'.repeat(d)}\ntype: user\n---\n# Body\n`;
    // `name: ` counts two levels (the line and its key), each bracket one more. At the bound: YAML.
    const at = parseFrontmatter(deep(MAX_YAML_DEPTH - 2));
    expect(at.error).toBeNull();
    expect(at.data.type).toBe('user');
    // Past it, up to the 5,000 levels that aborted the process: the line parser keeps the flat keys.
    for (const d of [MAX_YAML_DEPTH - 1, 1000, 4000, 5000]) {
      const fm = parseFrontmatter(deep(d));
      // 5,000 levels are also past the size bound, which is checked first.
      expect(fm.error).toBe(d === 5000
        ? `frontmatter larger than ${MAX_YAML_CHARS} characters: read line by line`
        : `frontmatter nested deeper than ${MAX_YAML_DEPTH} levels: read line by line`);
      // The line parser keeps the first 4,096 characters of a line.
      expect(fm.data).toEqual({ name: `name: ${'['.repeat(d)}x${']'.repeat(d)}`.slice(6, 4096), type: 'user' });
      expect(fm.body).toBe('# Body\n');
    }
  });

  it('reads a block larger than the YAML size bound line by line', () => {
    const items = Array.from({ length: MAX_YAML_CHARS / 4 }, (_, i) => i).join(', ');
    const fm = parseFrontmatter(`---\nname: big\nlist: [${items}]\n---\nbody`);
    expect(fm.error).toBe(`frontmatter larger than ${MAX_YAML_CHARS} characters: read line by line`);
    expect(fm.data.name).toBe('big');
    expect(fm.body).toBe('body');
  });

  it('counts every way YAML nests: brackets, indentation, and block indicators on a line', () => {
    // A line counts one for itself, one per indicator (`k:` here) and one per open bracket.
    expect(nestsDeeperThan('k: [[x]]\n', 4)).toBe(false);
    expect(nestsDeeperThan('k: [[x]]\n', 3)).toBe(true);
    // A flow collection continued over lines keeps its depth.
    expect(nestsDeeperThan('k: [[\n[[x]]]]\n', 6)).toBe(true);
    expect(nestsDeeperThan(`${'- '.repeat(10)}x\n`, 10)).toBe(true);
    expect(nestsDeeperThan(`${'? '.repeat(10)}x\n`, 10)).toBe(true);
    // Each more indented line sits inside the one before, blank and comment lines between them or not.
    const ladder = Array.from({ length: 10 }, (_, i) => `${' '.repeat(i)}k${i}:\n\n# [[[\n`).join('');
    expect(nestsDeeperThan(ladder, 19)).toBe(true);
    // A sequence may sit at its key's indentation and still be inside it.
    expect(nestsDeeperThan('a:\n- b:\n  - c:\n    - d\n', 8)).toBe(true);
    // Lines back at a shallower indentation close the deeper levels; sibling items do not add up.
    expect(nestsDeeperThan(Array.from({ length: 10 }, (_, i) => `${' '.repeat(i % 2)}k${i}: v`).join('\n'), 4)).toBe(false);
    expect(nestsDeeperThan(`tags:\n${'- tag\n'.repeat(100)}`, 4)).toBe(false);
    // What Claude Code writes stays far below the bound.
    expect(nestsDeeperThan('name: a\ndescription: "b: c - d"\nmetadata:\n  type: user\n  modified: 2026-11-19T09:12:44.120Z\n', 4)).toBe(false);
  });

  it('reports values an unquoted ` #` cuts, next to what YAML (and Claude Code) reads', () => {
    const fm = parseFrontmatter([
      '---',
      'name: epic-604',
      'description: Epic #604 — converge the parsers',
      'title: "quoted # is kept"',
      'note: #all of it is a comment',
      'tag: a#b',
      'metadata:',
      '  type: project #not a type',
      '  owner: team # platform',
      '---',
      'body',
    ].join('\n'));
    expect(fm.error).toBeNull();
    expect(fm.data).toMatchObject({ description: 'Epic', title: 'quoted # is kept', note: null, tag: 'a#b', type: 'project', owner: 'team' });
    expect(fm.written).toEqual({
      description: 'Epic #604 — converge the parsers',
      note: '#all of it is a comment',
      type: 'project #not a type',
      owner: 'team # platform',
    });
    // The nested value wins, so a cut top-level value it replaces is not reported.
    const nested = parseFrontmatter('---\ndescription: top #cut\nmetadata:\n  description: nested\n---\n');
    expect(nested.data.description).toBe('nested');
    expect(nested.written).toBeUndefined();
    expect(parseFrontmatter('---\nname: plain\ndescription: no hash here\n---\n').written).toBeUndefined();
  });
});
