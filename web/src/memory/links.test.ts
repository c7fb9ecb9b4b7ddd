import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../api/types';
import { findLinks, indexReach, LinkResolver, splitMemoryFile } from './links';

function entry(filename: string, name = filename.replace('.md', '')): MemoryEntry {
  return {
    id: `src/${filename}`, sourceId: 'src', filename, filepath: `/m/${filename}`, isIndex: filename === 'MEMORY.md',
    name, description: null, type: null, sessionId: null, modified: '2026-01-01T00:00:00Z', size: 1, lineCount: 1,
    links: [], linkedFrom: [], inIndex: false,
  };
}

describe('findLinks', () => {
  it('finds markdown links and wikilinks with offsets, skipping images, embeds and code', () => {
    const text = [
      '- [Role](user-role.md) — who',
      '![img](pic.md) ![[embed.png]]',
      'See [[testing-style|tests]] and [[deploy#steps]].',
      '`[not](code.md)` [[ok]]',
      '```',
      '[fenced](x.md) [[fenced]]',
      '```',
      '[after](after.md)',
    ].join('\n');
    const links = findLinks(text);
    expect(links.map((l) => `${l.kind}:${l.target}`)).toEqual([
      'markdown:user-role.md', 'wiki:testing-style', 'wiki:deploy', 'wiki:ok', 'markdown:after.md',
    ]);
    expect(links.map((l) => text.slice(l.start, l.end))).toEqual([
      '[Role](user-role.md)', '[[testing-style|tests]]', '[[deploy#steps]]', '[[ok]]', '[after](after.md)',
    ]);
  });

  it('stays fast on adversarial input', () => {
    const evilLine = '['.repeat(3000) + ']('.repeat(3000) + '[['.repeat(3000);
    const links = findLinks(Array.from({ length: 50 }, () => evilLine).join('\n') + '\n[ok](ok.md)');
    expect(links.map((l) => l.target)).toEqual(['ok.md']);
  });
});

describe('indexReach', () => {
  it('flags topics linked only after the cut, counting offsets in the whole file', () => {
    const r = new LinkResolver([entry('MEMORY.md'), entry('a.md'), entry('b.md'), entry('c.md')]);
    const text = '---\nname: index\n---\n- [A](a.md)\n- [C](c.md)\n- [B](b.md)\n- [A again](a.md)\n';
    const keptEnd = text.indexOf('\n- [B]');
    const reach = indexReach(splitMemoryFile(text), keptEnd, r);
    expect(reach.unreachable.map((e) => e.filename)).toEqual(['b.md']);
    expect(reach.reachable.map((e) => e.filename).sort()).toEqual(['a.md', 'c.md']);
  });
});

describe('splitMemoryFile', () => {
  it('separates frontmatter as the service does and reports where the body starts', () => {
    const text = '---\nname: x\ndescription: "y"\n---\n# Body\ntext\n';
    const s = splitMemoryFile(text);
    expect(s.data).toEqual({ name: 'x', description: 'y' });
    expect(s.body).toBe('# Body\ntext\n');
    expect(s.bodyStartLine).toBe(4);
    expect(text.slice(s.bodyStartOffset)).toBe(s.body);
  });

  it('leaves files without a closing line alone', () => {
    expect(splitMemoryFile('---\nname: x\nno end').bodyStartOffset).toBe(0);
    expect(splitMemoryFile('# Title\n---\n').bodyStartLine).toBe(0);
    expect(splitMemoryFile('---\r\nname: x\r\n---\r\nbody')).toMatchObject({ body: 'body', bodyStartLine: 3 });
  });

  it('gives the text written past an unquoted ` #` next to what YAML reads', () => {
    const s = splitMemoryFile('---\nname: epic\ndescription: Epic #604 — converge the parsers\n---\nbody\n');
    expect(s.data.description).toBe('Epic');
    expect(s.written).toEqual({ description: 'Epic #604 — converge the parsers' });
  });
});
