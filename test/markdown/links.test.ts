import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkPath } from '../../src/domain/markdown/linkPath.js';
import { extractLinks, findLinks } from '../../src/domain/markdown/links.js';

describe('extractLinks', () => {
  it('finds relative markdown link targets', () => {
    const md = [
      '- [Deploy](deploy.md) — how we ship',
      '- [Nested](./notes/x.md#heading) and [query](y.md?raw=1)',
      '- [Angle](<with space.md>) and [titled](t.md "Title")',
      '- [Encoded](my%20file.md) and [bad escape](100%.md)',
      '- [Parens](a_(b).md)',
    ].join('\n');
    expect(extractLinks(md).markdown).toEqual([
      'deploy.md', './notes/x.md', 'y.md', 'with space.md', 't.md', 'my file.md', '100%.md', 'a_(b).md',
    ]);
  });

  it('skips URLs with a scheme, anchors, absolute paths and images', () => {
    const md = [
      '[web](https://example.com/a.md) [mail](mailto:a@b.c) [js](javascript:alert(1))',
      '[anchor](#section) [abs](/etc/passwd.md) [home](~/x.md) [enc](%2Fetc%2Fx.md)',
      '![img](diagram.png) [kept](kept.md)',
    ].join('\n');
    expect(extractLinks(md).markdown).toEqual(['kept.md']);
  });

  it('finds wikilinks and strips alias and heading', () => {
    const md = 'See [[user-role]], [[deploy|the deploy notes]] and [[api#Auth]]; [[ spaced ]] [[#local]] ![[pic.png]]';
    expect(extractLinks(md).wikilinks).toEqual(['user-role', 'deploy', 'api', 'spaced']);
  });

  it('ignores links in fenced code blocks and inline code spans', () => {
    const md = [
      '```md',
      '[fenced](fenced.md) [[fenced-wiki]]',
      '```',
      '~~~~',
      '[tilde](tilde.md)',
      '~~~~',
      'Use `[inline](inline.md)` or ``[[double]] ` tick`` but [real](real.md) and [[real-wiki]]',
      'An unmatched ` backtick keeps [after](after.md)',
    ].join('\n');
    expect(extractLinks(md)).toEqual({ markdown: ['real.md', 'after.md'], wikilinks: ['real-wiki'] });
  });

  it('dedupes in first-seen order', () => {
    expect(extractLinks('[a](b.md) [c](a.md) [d](b.md)').markdown).toEqual(['b.md', 'a.md']);
  });

  it('handles CRLF line endings', () => {
    expect(extractLinks('[a](a.md)\r\n[[b]]\r\n')).toEqual({ markdown: ['a.md'], wikilinks: ['b'] });
  });

  it('gets through adversarial 1 MB lines and still finds the link after them', () => {
    const size = 1024 * 1024;
    const patterns = ['[](', '[](x', '[](<', '[](x "', '[[', '` ``', '[a](b(', '[', '](x(', '[](()', '[](\\(', '[]( '];
    const nested = [`${'[]('.repeat(size / 6)}${')'.repeat(size / 6)}`, `[](${'('.repeat(size / 2)}${')'.repeat(size / 2)}`];
    for (const line of [...patterns.map((p) => p.repeat(Math.ceil(size / p.length))), ...nested]) {
      const links = extractLinks(`${line}\n[end](end.md)\n`);
      expect(links.markdown.at(-1)).toBe('end.md');
      expect(links.wikilinks).toEqual([]);
    }
  });

  it('takes a backslash-escaped bracket as text and an escaped `!` as text before a wikilink', () => {
    expect(extractLinks('\\[[no]] \\\\[[yes]] ![[embed]] \\![[bang]] \\[x](no.md) \\\\[y](yes.md)')).toEqual({
      markdown: ['yes.md'], wikilinks: ['yes', 'bang'],
    });
  });
});

describe('findLinks', () => {
  it('gives every occurrence in text order with offsets into the text, CRLF included', () => {
    const text = 'a [[w]] [m](m.md)\r\n`[[code]]` [[w|again]]\r\n```\n[[fenced]]\n```\n[img](i.png)';
    const links = findLinks(text);
    expect(links.map((l) => [l.kind, l.target, text.slice(l.start, l.end)])).toEqual([
      ['wiki', 'w', '[[w]]'], ['markdown', 'm.md', '[m](m.md)'], ['wiki', 'w', '[[w|again]]'], ['markdown', 'i.png', '[img](i.png)'],
    ]);
  });
});

describe('findLinks with a count', () => {
  it('starts with the same links as the whole text\'s list, however many are asked for', () => {
    const piece = fc.constantFrom('[[w]] ', '[m](m.md) ', '[[w]] [n](n.md)', '[a](a.md) [[b]]', '\n', '\r\n', '```\n', 'text ', '![[e]]', '[x]');
    fc.assert(fc.property(fc.array(piece, { maxLength: 60 }), fc.nat({ max: 12 }), (pieces, n) => {
      const text = pieces.join('');
      const all = findLinks(text);
      const first = findLinks(text, n);
      expect(first.length).toBeGreaterThanOrEqual(Math.min(n, all.length));
      expect(first.slice(0, n)).toEqual(all.slice(0, n));
    }), { numRuns: 2000 });
  });
});

describe('linkPath', () => {
  it('decodes each valid escape and keeps stray ones, so a renderer re-encoding `%` as `%25` reads the same', () => {
    expect(linkPath('my%20file.md')).toBe('my file.md');
    expect(linkPath('100%.md')).toBe('100%.md');
    expect(linkPath('a%zz%20b.md')).toBe('a%zz b.md');
    expect(linkPath('a%25zz%20b.md')).toBe('a%zz b.md');
    expect(linkPath('%E2%82%AC%ff.md')).toBe('€%ff.md');
    expect(linkPath('%2Fetc%2Fx.md')).toBeNull();
    expect(linkPath('x%00.md')).toBeNull();
  });

  it('names no path past PATH_MAX (4,096 bytes decoded), escaped or not', () => {
    const longest = `a${'é'.repeat(2046)}.md`;
    expect(linkPath(longest)).toBe(longest);
    expect(linkPath(encodeURI(longest))).toBe(longest);
    expect(linkPath(`é${longest}`)).toBeNull();
    expect(linkPath(encodeURI(`é${longest}`))).toBeNull();
    expect(linkPath(`${'%ff'.repeat(300_000)}.md`)).toBeNull();
    // An anchor is not part of the path, however long.
    expect(linkPath(`a.md#${'x'.repeat(20_000)}`)).toBe('a.md');
  });
});
