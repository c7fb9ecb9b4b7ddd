import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMemory } from '../../src/domain/memory/loader.js';
import { MAX_LINKS_PER_FILE, PARSED_BYTES } from '../../src/domain/memory/parsedFile.js';
import type { MemoryEntry } from '../../src/domain/types.js';
import { type TempHome, tempHome, webappProject, write } from './helpers.js';

let t: TempHome;
let cwd: string;
let dir: string;
let key: string;
beforeEach(async () => {
  t = await tempHome();
  ({ cwd, key, dir } = await webappProject(t));
});
afterEach(async () => {
  await t.cleanup();
});

async function load() {
  const memory = await loadMemory({
    claudeDir: t.claude, homeDir: t.home, projects: [{ key, dir: path.dirname(dir), cwd }],
  });
  const byFile = new Map<string, MemoryEntry>(memory.listing.entries.map((e) => [e.filename, e]));
  return { ...memory, source: memory.listing.sources[0]!, byFile };
}

describe('memory entries', () => {
  it('lists MEMORY.md and nested topics, skipping excluded folders, dotfiles and temp files', async () => {
    for (const f of [
      'MEMORY.md', 'a.md', 'notes/deploy.md', 'notes/MEMORY.md', 'deep/er/x.md', 'dir.md/inner.md',
      'team/t.md', 'logs/l.md', 'sessions/s.md', 'proposals/p.md', 'notes/team/kept.md',
      '.hidden.md', '.git/h.md', 'notes/.cache/c.md', 'a.md.tmp.123.abcdef012345', 'x.tmp.1.md', 'readme.txt',
    ]) {
      await write(path.join(dir, f), `# ${f}\n`);
    }
    const { listing } = await load();
    expect(listing.entries.map((e) => e.filename)).toEqual([
      'MEMORY.md', 'a.md', 'deep/er/x.md', 'dir.md/inner.md', 'notes/MEMORY.md', 'notes/deploy.md', 'notes/team/kept.md',
    ]);
    const deploy = listing.entries.find((e) => e.filename === 'notes/deploy.md')!;
    expect(deploy).toMatchObject({
      id: `${key}/notes/deploy.md`, sourceId: key, filepath: path.join(dir, 'notes', 'deploy.md'), isIndex: false,
    });
    expect(listing.entries.filter((e) => e.isIndex).map((e) => e.filename)).toEqual(['MEMORY.md']);
    expect(listing.sources[0]!.entryCount).toBe(6);
  });

  it('skips FIFOs, follows symlinked files and does not loop on symlinked dirs', async () => {
    await write(path.join(dir, 'real.md'), '# Real\n');
    execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
    await symlink(path.join(dir, 'real.md'), path.join(dir, 'alias.md'));
    await mkdir(path.join(dir, 'sub'));
    await symlink(dir, path.join(dir, 'sub', 'loop'));
    const { listing } = await load();
    expect(listing.entries.map((e) => e.filename)).toEqual(['alias.md', 'real.md']);
  });

  it('does not follow symlinks out into a dot-directory of home', async () => {
    await write(path.join(t.home, '.ssh', 'id.md'), 'secret');
    await write(path.join(dir, 'ok.md'), 'ok');
    await symlink(path.join(t.home, '.ssh', 'id.md'), path.join(dir, 'key.md'));
    await symlink(path.join(t.home, '.ssh'), path.join(dir, 'keys'));
    const { listing, search } = await load();
    expect(listing.entries.map((e) => e.filename)).toEqual(['ok.md']);
    expect(await search('secret')).toEqual([]);
  });

  it('reads fields from frontmatter, with fallbacks', async () => {
    const mtime = new Date('2026-01-02T03:04:05.000Z');
    await write(path.join(dir, 'full.md'), [
      '---', 'name: user-role', 'description: "Senior backend engineer"', 'metadata:', '  type: user',
      '  originSessionId: 1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f', '  modified: 2026-11-19T09:12:44.120Z', '---',
      '# Heading is not the name', 'line',
    ].join('\n'), mtime);
    await write(path.join(dir, 'heading.md'), '---\ntype: robot\nmodified: not a date\n---\n\n## From heading\n', mtime);
    await write(path.join(dir, 'plain.md'), 'no heading here\n', mtime);
    await write(path.join(dir, 'broken.md'), '---\nname: [unclosed\ndescription: a: b\n---\nbody\n', mtime);
    const { byFile } = await load();
    expect(byFile.get('full.md')).toMatchObject({
      name: 'user-role', description: 'Senior backend engineer', type: 'user',
      sessionId: '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f', modified: '2026-11-19T09:12:44.120Z', lineCount: 10,
    });
    expect(byFile.get('heading.md')).toMatchObject({
      name: 'From heading', description: null, type: null, sessionId: null, modified: mtime.toISOString(),
    });
    expect(byFile.get('plain.md')).toMatchObject({ name: 'plain.md', size: 16, lineCount: 1 });
    // One malformed file keeps what the line parser found and hides nothing else.
    expect(byFile.get('broken.md')).toMatchObject({ name: '[unclosed', description: 'a: b' });
  });

  it('resolves wikilinks by name first, then by file name; links hold only what resolves', async () => {
    await write(path.join(dir, 'MEMORY.md'), [
      '# Index', '- [Role](role.md) — who', '- [Deploy](notes/deploy.md#steps)', '- [Gone](missing.md)',
      '- [Outside](../../../etc/passwd.md)', '- [Web](https://example.com/x.md)', '[[no-such-memory]]',
    ].join('\n'));
    await write(path.join(dir, 'role.md'), '---\nname: user-role\n---\nSee [[deploy]] and [[style-guide|the guide]] and [[user-role]].\n');
    await write(path.join(dir, 'style.md'), '---\nname: style-guide\n---\nBack to [[role]], [[notes/deploy.md]] and [[ghost]].\n');
    await write(path.join(dir, 'notes', 'deploy.md'), '# Deploy\nSee [the role](../role.md) and [sibling](./other.md).\n');
    // A file named like another memory's name: the name wins.
    await write(path.join(dir, 'user-role.md'), '# decoy\n');
    const { byFile, source } = await load();
    expect(byFile.get('role.md')!.links).toEqual(['notes/deploy.md', 'style.md']);
    expect(byFile.get('style.md')!.links).toEqual(['role.md', 'notes/deploy.md']);
    expect(byFile.get('notes/deploy.md')!.links).toEqual(['role.md']);
    expect(byFile.get('MEMORY.md')!.links).toEqual(['role.md', 'notes/deploy.md']);

    expect(byFile.get('role.md')!.linkedFrom).toEqual(['MEMORY.md', 'notes/deploy.md', 'style.md']);
    expect(byFile.get('notes/deploy.md')!.linkedFrom).toEqual(['MEMORY.md', 'role.md', 'style.md']);
    expect(byFile.get('user-role.md')!.linkedFrom).toEqual([]);

    expect(byFile.get('MEMORY.md')!.inIndex).toBe(true);
    expect(byFile.get('role.md')!.inIndex).toBe(true);
    expect(byFile.get('style.md')!.inIndex).toBe(false);
    expect(source.orphans).toEqual(['style.md', 'user-role.md']);
    // A path out of the memory folder or to the web is not a memory link: neither listed nor dangling.
    expect(source.index).toEqual({
      lines: 7, bytes: byFile.get('MEMORY.md')!.size, lineLimit: 200, byteLimit: 25000,
      danglingLinks: ['missing.md', 'no-such-memory'],
    });
  });

  it('resolves a wikilink by the first heading of a topic without `name:`, as the UI does', async () => {
    await write(path.join(dir, 'MEMORY.md'), '# Index\n- [[Deploy Notes]]\n- [Gone](gone.md)\n- [[ghost]]\n');
    await write(path.join(dir, 'deploy-notes-2024.md'), '# Deploy Notes\nSteps.\n');
    await write(path.join(dir, 'other.md'), 'See [[deploy notes]], [[nowhere]] and [x](missing.md).\n');
    const { byFile, source } = await load();
    expect(byFile.get('MEMORY.md')!.links).toEqual(['deploy-notes-2024.md']);
    expect(byFile.get('other.md')!.links).toEqual(['deploy-notes-2024.md']);
    expect(byFile.get('deploy-notes-2024.md')).toMatchObject({ linkedFrom: ['MEMORY.md', 'other.md'], inIndex: true });
    expect(source.orphans).toEqual(['other.md']);
    expect(source.index!.danglingLinks).toEqual(['gone.md', 'ghost']);
  });

  it('reports no index and every topic as orphan without MEMORY.md', async () => {
    await write(path.join(dir, 'b.md'), 'b');
    await write(path.join(dir, 'a.md'), '[[b]]');
    const { source, byFile } = await load();
    expect(source.index).toBeNull();
    expect(source.orphans).toEqual(['a.md', 'b.md']);
    expect(byFile.get('b.md')!.inIndex).toBe(false);
    expect(byFile.get('b.md')!.linkedFrom).toEqual(['a.md']);
  });

  it('reports the latest entry mtime as the source modified time, else the dir mtime', async () => {
    await write(path.join(dir, 'old.md'), 'old', new Date('2020-01-01T00:00:00Z'));
    await write(path.join(dir, 'new.md'), '---\nmodified: 1999-01-01T00:00:00Z\n---\n', new Date('2024-05-06T07:08:09Z'));
    expect((await load()).source.modified).toBe('2024-05-06T07:08:09.000Z');
  });

  it('takes the first MAX_LINKS_PER_FILE links of a file into the link graph, whatever follows', async () => {
    const lines = ['# Index'];
    for (let i = 0; i < MAX_LINKS_PER_FILE + 100; i++) lines.push(`- [Gone ${i}](gone-${i}.md)`);
    lines.push('- [Late](late.md)');
    await write(path.join(dir, 'MEMORY.md'), lines.join('\n') + '\n');
    await write(path.join(dir, 'late.md'), 'late');
    const { listing, byFile } = await load();
    const index = listing.sources[0]!.index!;
    expect(index.danglingLinks).toHaveLength(MAX_LINKS_PER_FILE);
    expect(index.danglingLinks.at(-1)).toBe(`gone-${MAX_LINKS_PER_FILE - 1}.md`);
    expect(byFile.get('late.md')!.inIndex).toBe(false);
    expect(listing.sources[0]!.orphans).toEqual(['late.md']);
  });

  it('lists a file over PARSED_BYTES with its real size and line count, its fields and links from its head, and searches all of it', async () => {
    const head = '---\nname: big\n---\n[[a]]\n';
    const filler = 'x'.repeat(99) + '\n';
    const big = head + filler.repeat(Math.ceil((3 * PARSED_BYTES) / 100) + 10) + 'tail [[late-link]]';
    await write(path.join(dir, 'big.md'), big);
    await write(path.join(dir, 'a.md'), 'a');
    await write(path.join(dir, 'late-link.md'), 'late');
    const { byFile, search } = await load();
    const entry = byFile.get('big.md')!;
    expect(entry.size).toBe(Buffer.byteLength(big));
    expect(entry.lineCount).toBe(big.split('\n').length);
    expect(entry.name).toBe('big');
    expect(entry.links).toEqual(['a.md']);
    expect(await search('LATE-LINK')).toEqual([`${key}/big.md`]);
    expect(await search('name: big')).toEqual([`${key}/big.md`]);
    expect(await search('absent text')).toEqual([]);
  });
});
