// Things on disk that are not plain small files: symlink loops, symlinks out of the home, FIFOs, sockets
// and directories named *.md, a file name that is not UTF-8, a 50 MB plan and a 20 MB session-log line.
// Nothing may hang (a FIFO read blocks forever), crash, or leak a file the rules do not list.
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_BYTES, MAX_LINE_BYTES } from '../../src/domain/transcripts/transcriptReader.js';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { conversationLine, encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { request } from '../helpers/http.js';
import { harness, watchedDirs, type Harness } from './support.js';

const SECRET = 'SSH-PRIVATE-KEY-MARKER-91c2';
let home: TempHome;
let server: Harness;
let sockets: net.Server[] = [];

const plans = async () => (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
const names = async () => (await plans()).map((p) => p.filename).sort();
const memory = async () => server.json<{ sources: { id: string; dir: string }[]; entries: MemoryEntry[] }>('/api/memory');

function listenOn(socketPath: string): Promise<void> {
  return new Promise((resolve) => {
    const s = net.createServer();
    sockets.push(s);
    s.listen(socketPath, () => resolve());
  });
}

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-special-');
  const plansDir = path.join(home.claude, 'plans');
  const memDir = path.join(home.claude, 'projects', '-home-u-p', 'memory');
  await mkdir(plansDir, { recursive: true });
  await mkdir(memDir, { recursive: true });
  await home.plan('normal.md', '# Normal\n');
  await writeFile(path.join(memDir, 'MEMORY.md'), '# Memory\n- [Normal](normal-topic.md)\n');
  await writeFile(path.join(memDir, 'normal-topic.md'), '---\nname: normal\n---\nok\n');
  // A home dot-directory with a secret, and a place outside the home entirely.
  await home.write(path.join(home.root, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  await home.write(path.join(home.root, '.ssh', 'key.md'), `${SECRET}\n`);
  const outside = path.join(home.root, '..', `${path.basename(home.root)}-outside`);
  await home.write(path.join(outside, 'shared.md'), '# Shared from outside the home\n');

  // Symlink loops: two links pointing at each other, one at itself, a directory loop in memory.
  await symlink('loop-b.md', path.join(plansDir, 'loop-a.md'));
  await symlink('loop-a.md', path.join(plansDir, 'loop-b.md'));
  await symlink('self.md', path.join(plansDir, 'self.md'));
  await symlink('.', path.join(memDir, 'again'));
  await symlink('..', path.join(memDir, 'up'));
  await symlink('topic-loop.md', path.join(memDir, 'topic-loop.md'));
  await symlink('.', path.join(home.claude, 'projects', '-home-u-p', 'loopdir'));
  // Symlinks out of the home: into ~/.ssh, to the file-system root, to the home itself, to a file outside.
  await symlink(path.join(home.root, '.ssh', 'id_ed25519'), path.join(plansDir, 'leak.md'));
  await symlink(path.join(home.root, '.ssh', 'key.md'), path.join(memDir, 'leak-topic.md'));
  await symlink(path.join(home.root, '.ssh'), path.join(memDir, 'ssh-dir'));
  await symlink('/', path.join(memDir, 'root-dir'));
  await symlink(home.root, path.join(memDir, 'home-dir'));
  await symlink(path.join(outside, 'shared.md'), path.join(plansDir, 'outside.md'));
  // Not files: FIFOs, sockets and directories named like plans, topics and logs.
  execFileSync('mkfifo', [path.join(plansDir, 'fifo.md')]);
  execFileSync('mkfifo', [path.join(memDir, 'fifo-topic.md')]);
  execFileSync('mkfifo', [path.join(home.claude, 'projects', '-home-u-p', `${uuid(9)}.jsonl`)]);
  await listenOn(path.join(plansDir, 'socket.md'));
  await mkdir(path.join(plansDir, 'folder.md'));
  await writeFile(path.join(plansDir, 'folder.md', 'inside.md'), '# inside a folder named .md\n');
  await mkdir(path.join(memDir, 'dir-topic.md'));
  await writeFile(path.join(memDir, 'dir-topic.md', 'nested.md'), '---\nname: nested\n---\n');
  await mkdir(path.join(home.claude, 'projects', '-home-u-p', `${uuid(8)}.jsonl`));
  // A file name that is not valid UTF-8 (Linux allows any bytes but / and NUL).
  await writeFile(Buffer.concat([Buffer.from(`${plansDir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), '# Not UTF-8\n');
  server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
});

afterAll(async () => {
  await server?.close();
  for (const s of sockets) s.close();
  sockets = [];
  await home?.cleanup();
});

describe('symlink loops, FIFOs, sockets and directories named *.md', () => {
  it('lists the real plans and nothing else, without hanging', async () => {
    const listed = await names();
    expect(listed).toContain('normal.md');
    for (const bad of ['loop-a.md', 'loop-b.md', 'self.md', 'fifo.md', 'socket.md', 'folder.md']) expect(listed).not.toContain(bad);
    // The file whose name is not UTF-8 cannot be named by a request; it is simply not listed.
    expect(listed.filter((n) => n.startsWith('bad-'))).toEqual([]);
    for (const bad of ['loop-a.md', 'self.md', 'fifo.md', 'socket.md', 'folder.md', 'folder.md/inside.md']) {
      const res = await request(server.port, { path: `/api/plans/${encodeURIComponent(bad)}/content` });
      expect([bad, res.status]).toEqual([bad, 404]);
    }
  });

  it('lists only regular memory files, walks a directory named *.md, and does not loop', async () => {
    const { entries } = await memory();
    const files = entries.map((e) => e.filename).sort();
    expect(files).toContain('normal-topic.md');
    expect(files).toContain('dir-topic.md/nested.md');
    for (const bad of ['fifo-topic.md', 'topic-loop.md', 'dir-topic.md']) expect(files).not.toContain(bad);
    // The loops (again -> ., up -> ..) are not walked into a second copy of anything.
    expect(files.filter((f) => f.startsWith('again/') || f.startsWith('up/'))).toEqual([]);
    expect(new Set(entries.map((e) => e.filepath)).size).toBe(entries.length);
  });

  it('skips a FIFO and a directory named like a session log', async () => {
    expect(server.viewer.sessions.scanStats().trackedFiles).toBe(0);
    // And goes on reading real logs next to them.
    const repo = await home.repo('webapp');
    await home.write(`projects/-home-u-p/${uuid(1)}.jsonl`, `${conversationLine(repo, uuid(1), 'normal')}\n`);
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'normal.md')?.sessionId === uuid(1), 15_000)).toBe(true);
  });

  it('answers a plan swapped for a FIFO after listing with 404, at once', async () => {
    const file = await home.plan('soon-fifo.md', '# Soon a FIFO\n');
    expect(await eventually(async () => (await names()).includes('soon-fifo.md'), 15_000)).toBe(true);
    execFileSync('sh', ['-c', `rm '${file}' && mkfifo '${file}'`]);
    const res = await request(server.port, { path: '/api/plans/soon-fifo.md/content' });
    expect(res.status).toBe(404);
    expect(await eventually(async () => !(await names()).includes('soon-fifo.md'), 15_000)).toBe(true);
  });
});

describe('symlinks out of the home', () => {
  it('are not crawled by the watchers: a link to / or to the home adds no watched folders and no errors', () => {
    // memory/root-dir -> /, memory/home-dir -> <home>, memory/up -> .., memory/again -> . exist in this home.
    const dirs = watchedDirs(server.viewer);
    expect(dirs.filter((d) => !d.startsWith(home.claude))).toEqual([]);
    expect(dirs.length).toBeLessThan(20);
    expect(server.warnings.filter((w) => w.includes('file watching failed'))).toEqual([]);
  });

  it('does not follow memory symlinks into a dot-directory of home, the home itself or /', async () => {
    const { entries } = await memory();
    const files = entries.map((e) => e.filename);
    for (const refused of ['leak-topic.md', 'ssh-dir/key.md']) expect(files).not.toContain(refused);
    expect(files.filter((f) => f.startsWith('root-dir/') || f.startsWith('home-dir/'))).toEqual([]);
    for (const entry of entries) {
      const res = await request(server.port, { path: `/api/memory/content?id=${encodeURIComponent(entry.id)}` });
      expect(res.body).not.toContain(SECRET);
    }
    expect(server.warnings.some((w) => w.includes('leak-topic.md') && w.includes('points outside'))).toBe(true);
    const search = JSON.parse((await request(server.port, { path: `/api/memory/search?q=${SECRET}` })).body) as { ids: string[] };
    expect(search.ids).toEqual([]);
  });

  it('does not list a plan symlinked to a file outside its plans folder, and refuses to open it', async () => {
    expect(await names()).not.toContain('outside.md');
    expect(server.warnings.some((w) => w.includes('outside.md') && w.includes('points outside'))).toBe(true);
    const res = await request(server.port, {
      method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ filepath: path.join(home.claude, 'plans', 'outside.md') }),
    });
    expect(res.status).toBe(400);
  });

  it('ignores a repository plansDirectory that is a symlink out of the repository', async () => {
    const repo = await home.repo('escaping');
    const target = path.join(home.root, '.ssh');
    await symlink(target, path.join(repo, 'plans-link'));
    await home.write(`${repo}/.claude/settings.json`, JSON.stringify({ plansDirectory: 'plans-link' }));
    await home.write(`projects/${encodeCwd(repo)}/${uuid(2)}.jsonl`, `${conversationLine(repo, uuid(2), 'x')}\n`);
    await server.viewer.refresh();
    expect(server.viewer.plans.folderList).not.toContain(path.join(repo, 'plans-link'));
    expect(await names()).not.toContain('key.md');
    expect(server.warnings.some((w) => w.includes('plans-link'))).toBe(true);
  });
});

describe('huge inputs', () => {
  it('serves a 50 MB plan: listed with exact counts, searchable to its last line, content intact', async () => {
    const line = 'lorem ipsum dolor sit amet, ünïcödé 漢字 and more words here\n';
    const lines = Math.ceil((50 * 1024 * 1024) / Buffer.byteLength(line));
    const text = `# Plan: Huge\n${line.repeat(lines)}needle-at-the-very-end\n`;
    // Written as Claude Code writes plans: a temp file renamed into place (a plan growing while read is the
    // 20 MB log line below, and fs.races).
    const file = path.join(home.claude, 'plans', 'huge.md');
    await writeFile(`${file}.tmp.1.0000000000aa`, text);
    await rename(`${file}.tmp.1.0000000000aa`, file);
    const size = Buffer.byteLength(text);
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'huge.md')?.size === size, 30_000, 100)).toBe(true);
    const meta = (await plans()).find((p) => p.filename === 'huge.md')!;
    expect(meta.size).toBe(Buffer.byteLength(text));
    expect(meta.size).toBeGreaterThan(50 * 1024 * 1024);
    expect(meta.lineCount).toBe(lines + 2);
    expect(meta.wordCount).toBe(lines * 11 + 4);
    expect(meta.title).toBe('Huge');
    const hits = JSON.parse((await request(server.port, { path: '/api/search?q=NEEDLE-AT-THE-VERY-END' })).body) as { filenames: string[] };
    expect(hits.filenames).toEqual(['huge.md']);
    const res = await request(server.port, { path: '/api/plans/huge.md/content' });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { content: string }).content === text).toBe(true);
    // Small requests keep being answered meanwhile.
    expect((await request(server.port, { path: '/api/projects' })).status).toBe(200);
    await writeFile(file, '# Small again\n');
    expect(await eventually(async () => (await plans()).find((p) => p.filename === 'huge.md')?.title === 'Small again', 20_000)).toBe(true);
  }, 120_000);

  it('reads a 20 MB log line, growing while it is read, holding at most the reader\'s line limit and a chunk', async () => {
    const repo = await home.repo('bigline');
    const sid = uuid(20);
    const log = path.join(home.claude, 'projects', encodeCwd(repo), `${sid}.jsonl`);
    await home.plan('after-big-line.md', '# After\n');
    await mkdir(path.dirname(log), { recursive: true });
    const bigLine = conversationLine(repo, sid, null, `${'x'.repeat(10 * 1024 * 1024)}"cwd":"/fake${'y'.repeat(10 * 1024 * 1024)}`);
    expect(bigLine.length).toBeGreaterThan(20 * 1024 * 1024);
    // Appended in pieces, as a session writes, while the watcher reads.
    const bytes = Buffer.from(`${bigLine}\n${conversationLine(repo, sid, 'after-big-line')}\n`);
    for (let at = 0; at < bytes.length; at += 3 * 1024 * 1024 + 7) await appendFile(log, bytes.subarray(at, at + 3 * 1024 * 1024 + 7));
    const linked = await eventually(async () => (await plans()).find((p) => p.filename === 'after-big-line.md')?.project === 'bigline', 20_000);
    if (!linked) console.log('DEBUG', JSON.stringify(server.viewer.sessions.scanStats()), JSON.stringify((await plans()).find((p) => p.filename === 'after-big-line.md')), server.viewer.sessions.knownCwds(), server.warnings);
    expect(linked).toBe(true);
    const stats = server.viewer.sessions.scanStats();
    expect(stats.maxHeldBytes).toBeLessThanOrEqual(MAX_LINE_BYTES + DEFAULT_CHUNK_BYTES);
    expect(stats.bytesRead).toBeGreaterThanOrEqual(bytes.length);
  });
});
