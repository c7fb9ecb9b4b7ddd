import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../api/types';
import { EntryResolver, findLinks, indexReach, joinRelative } from './links';
import { splitFrontmatter } from './frontmatter';

function entry(filename: string, name = filename.replace('.md', '')): MemoryEntry {
  return {
    id: `src/${filename}`, sourceId: 'src', filename, filepath: `/m/${filename}`, isIndex: filename === 'MEMORY.md',
    name, description: null, type: null, sessionId: null, modified: '2026-01-01T00:00:00Z', size: 1, lineCount: 1,
    links: [], linkedFrom: [], inIndex: false,
  };
}

describe('findLinks', () => {
  it('finds markdown links and wikilinks with offsets, skipping images and code', () => {
    const text = [
      '- [Role](user-role.md) — who',
      '![img](pic.md)',
      'See [[testing-style|tests]] and [[deploy#steps]].',
      '`[not](code.md)` [[ok]]',
      '```',
      '[fenced](x.md) [[fenced]]',
      '```',
      '[after](after.md)',
    ].join('\n');
    const links = findLinks(text);
    expect(links.map((l) => `${l.kind}:${l.target}`)).toEqual([
      'md:user-role.md', 'wiki:testing-style', 'wiki:deploy', 'wiki:ok', 'md:after.md',
    ]);
    const first = links[0]!;
    expect(text.slice(first.start, first.end)).toBe('[Role](user-role.md)');
  });

  it('stays fast on adversarial input', () => {
    const evilLine = '['.repeat(3000) + ']('.repeat(3000) + '[['.repeat(3000);
    const links = findLinks(Array.from({ length: 50 }, () => evilLine).join('\n') + '\n[ok](ok.md)');
    expect(links.map((l) => l.target)).toEqual(['ok.md']);
  });
});

describe('EntryResolver', () => {
  const entries = [entry('MEMORY.md'), entry('user-role.md', 'user-role'), entry('sub/deploy.md', 'Deploy steps')];
  const r = new EntryResolver(entries);

  it('resolves relative markdown links, including from subfolders', () => {
    expect(r.resolveHref('user-role.md', 'MEMORY.md')).toMatchObject({ kind: 'entry', entry: { filename: 'user-role.md' } });
    expect(r.resolveHref('./sub/deploy.md#x', 'MEMORY.md')).toMatchObject({ kind: 'entry' });
    expect(r.resolveHref('../user-role.md', 'sub/deploy.md')).toMatchObject({ kind: 'entry' });
    expect(r.resolveHref('missing.md', 'MEMORY.md').kind).toBe('broken');
    expect(r.resolveHref('../../etc/passwd.md', 'MEMORY.md').kind).toBe('broken');
    expect(r.resolveHref('https://example.com/a.md', 'MEMORY.md').kind).toBe('other');
    expect(r.resolveHref('src/main.ts', 'MEMORY.md').kind).toBe('other');
  });

  it('resolves wikilinks by name, then by file stem', () => {
    expect(r.resolveWiki('Deploy steps')).toMatchObject({ kind: 'entry', entry: { filename: 'sub/deploy.md' } });
    expect(r.resolveWiki('deploy')).toMatchObject({ kind: 'entry', entry: { filename: 'sub/deploy.md' } });
    expect(r.resolveWiki('USER-ROLE')).toMatchObject({ kind: 'entry' });
    expect(r.resolveWiki('nobody').kind).toBe('broken');
  });

  it('joinRelative refuses to climb out of the folder', () => {
    expect(joinRelative('', '../x.md')).toBeNull();
    expect(joinRelative('a/', './b/../c.md')).toBe('a/c.md');
  });
});

describe('indexReach', () => {
  it('flags topics linked only after the cut', () => {
    const entries = [entry('MEMORY.md'), entry('a.md'), entry('b.md'), entry('c.md')];
    const r = new EntryResolver(entries);
    const text = '- [A](a.md)\n- [C](c.md)\n- [B](b.md)\n- [A again](a.md)\n';
    const keptEnd = text.indexOf('\n- [B]');
    const reach = indexReach(text, keptEnd, r);
    expect(reach.unreachable.map((e) => e.filename)).toEqual(['b.md']);
    expect(reach.reachable.map((e) => e.filename).sort()).toEqual(['a.md', 'c.md']);
  });
});

describe('splitFrontmatter', () => {
  it('separates frontmatter and reports where the body starts', () => {
    const text = '---\nname: x\ndescription: "y"\n---\n# Body\ntext\n';
    const s = splitFrontmatter(text);
    expect(s.frontmatter).toBe('name: x\ndescription: "y"\n');
    expect(s.body).toBe('# Body\ntext\n');
    expect(s.bodyStartLine).toBe(4);
    expect(text.slice(s.bodyStartOffset)).toBe(s.body);
  });
  it('leaves files without a closing fence alone', () => {
    expect(splitFrontmatter('---\nname: x\nno end').frontmatter).toBeNull();
    expect(splitFrontmatter('# Title\n---\n').frontmatter).toBeNull();
    expect(splitFrontmatter('---\r\nname: x\r\n---\r\nbody').body).toBe('body');
  });
});
