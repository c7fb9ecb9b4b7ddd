import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../src/domain/markdown/links.js';

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
});
