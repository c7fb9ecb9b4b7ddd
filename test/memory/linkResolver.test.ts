// The one link resolution the service and the UI share (src/domain/memory/linkResolver.ts), case by
// case in the order its header documents.
import { describe, expect, it } from 'vitest';
import { joinRelative, LinkResolver, type Linkable } from '../../src/domain/memory/linkResolver.js';

const e = (filename: string, name = filename): Linkable => ({ filename, name, isIndex: filename === 'MEMORY.md' });
const hit = (r: ReturnType<LinkResolver<Linkable>['wiki']>) => (r.kind === 'entry' ? r.entry.filename : r.kind);

describe('LinkResolver', () => {
  it('resolves relative .md paths from the linking file, exactly; other paths are not memory links', () => {
    const r = new LinkResolver([e('MEMORY.md'), e('user-role.md'), e('sub/deploy.md'), e('a b.md'), e('€.md')]);
    expect(hit(r.href('user-role.md', 'MEMORY.md'))).toBe('user-role.md');
    expect(hit(r.href('./sub/deploy.md#steps', 'MEMORY.md'))).toBe('sub/deploy.md');
    expect(hit(r.href('../user-role.md?x=1', 'sub/deploy.md'))).toBe('user-role.md');
    expect(hit(r.href('a%20b.md', 'MEMORY.md'))).toBe('a b.md');
    expect(hit(r.href('%E2%82%AC.md', 'MEMORY.md'))).toBe('€.md');
    expect(r.href('missing.md', 'sub/deploy.md')).toEqual({
      kind: 'broken', target: 'sub/missing.md', reason: 'sub/missing.md does not exist in this memory folder',
    });
    // Paths are file names: case matters, as it does to the file system Claude Code reads from on Linux.
    expect(r.href('User-Role.md', 'MEMORY.md').kind).toBe('broken');
    for (const other of ['../../etc/passwd.md', 'https://example.com/a.md', '/abs.md', '~/x.md', 'src/main.ts', '#top', '']) {
      expect(r.href(other, 'MEMORY.md')).toEqual({ kind: 'other' });
    }
  });

  it('resolves wikilinks by name, then path, then base name; exact before case-folded within each', () => {
    const r = new LinkResolver([
      e('MEMORY.md', 'Index'),
      // A topic without `name:`: its name is its first heading.
      e('deploy-notes-2024.md', 'Deploy Notes'),
      e('role.md', 'user-role'),
      e('user-role.md', 'decoy'),
      e('notes/deploy.md', 'Deploy'),
      e('Style.md', 'style'),
      e('notes/style.md', 'STYLE'),
    ]);
    expect(hit(r.wiki('Deploy Notes'))).toBe('deploy-notes-2024.md');
    expect(hit(r.wiki('deploy notes'))).toBe('deploy-notes-2024.md');
    // A name beats a file of that name.
    expect(hit(r.wiki('user-role'))).toBe('role.md');
    expect(hit(r.wiki('decoy'))).toBe('user-role.md');
    expect(hit(r.wiki('deploy'))).toBe('notes/deploy.md');
    expect(hit(r.wiki('notes/deploy.md'))).toBe('notes/deploy.md');
    expect(hit(r.wiki('MEMORY'))).toBe('MEMORY.md');
    // Exact name "STYLE" beats the folded "style" of Style.md, which listing order would put first.
    expect(hit(r.wiki('STYLE'))).toBe('notes/style.md');
    expect(hit(r.wiki('Style'))).toBe('Style.md');
    expect(r.wiki('nobody')).toEqual({ kind: 'broken', target: 'nobody', reason: 'No memory named “nobody” in this folder' });
  });

  it('breaks ties by listing order (MEMORY.md, then file name), whatever order it is given', () => {
    const entries = [e('b.md', 'same'), e('a/x.md', 'x'), e('MEMORY.md', 'same'), e('c/x.md', 'x')];
    for (const order of [entries, [...entries].reverse()]) {
      const r = new LinkResolver(order);
      expect(hit(r.wiki('same'))).toBe('MEMORY.md');
      expect(hit(r.wiki('x'))).toBe('a/x.md');
    }
  });

  it('joinRelative applies . and .. and refuses to climb out of the folder', () => {
    expect(joinRelative('', '../x.md')).toBeNull();
    expect(joinRelative('a/', './b/../c.md')).toBe('a/c.md');
    expect(joinRelative('a/', '..//b.md')).toBe('b.md');
    expect(joinRelative('', '.')).toBeNull();
  });
});
