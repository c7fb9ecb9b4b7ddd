// Bulk memory changes outside any session (Auto Dream): a real home and cache dir, a memory folder the
// viewer observed, then two topics merged into one, three deleted and MEMORY.md rewritten with no
// transcript record -> one entry naming every file and what was merged into what. A session that writes
// three memory files (its transcript in the real shape) makes no entry. Times are set on the files (and
// on the folder, whose mtime dates a deletion), so nothing depends on the wall clock.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Viewer } from '../../src/viewer.js';
import { MAX_CHANGES, ObservedVersions } from '../../src/domain/history/observedVersions.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';
import { prompt, write, type LineContext } from '../history/transcript.js';

let home: TempHome;
let memDir: string;
let key: string;
let cacheDir: string;
const S = uuid(0xb01);
const SESSION_AT = new Date(Date.UTC(2026, 10, 19, 9, 0, 0));
const BULK_AT = Date.UTC(2026, 10, 20, 3, 0, 0);
const t = (seconds: number): Date => new Date(BULK_AT + seconds * 1000);

const ALPHA = '---\nname: Deploy\n---\nRun npm run release.\nTag the commit.\n';
const BETA = '---\nname: Release notes\n---\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n';
const MERGED = `---\nname: Shipping\n---\nRun npm run release.\nTag the commit.\nWrite the notes in CHANGELOG.md.\nAsk Bob before Friday deploys.\n`;

async function put(name: string, text: string, mtime: Date): Promise<void> {
  const file = path.join(memDir, name);
  await writeFile(file, text);
  await utimes(file, mtime, mtime);
}

async function open(): Promise<Viewer> {
  const viewer = await Viewer.open({ claudeDir: home.claude, homeDir: home.root, logger: { warn: () => undefined }, watch: false, cacheDir });
  await viewer.transcriptsReady;
  return viewer;
}

async function observe(viewer: Viewer): Promise<void> {
  viewer.memory.invalidate();
  await viewer.memoryHistory.observeAll();
}

beforeAll(async () => {
  home = await TempHome.create('pmv-bulk-');
  const repo = await home.repo('webapp');
  key = encodeCwd(repo);
  memDir = path.join(home.claude, 'projects', key, 'memory');
  cacheDir = path.join(home.root, 'cache');
  await mkdir(memDir, { recursive: true });
  const before = new Date(Date.UTC(2026, 10, 18, 12, 0, 0));
  await put('MEMORY.md', '# Memory\n- [Deploy](alpha.md)\n- [Notes](beta.md)\n', before);
  await put('alpha.md', ALPHA, before);
  await put('beta.md', BETA, before);
  for (const n of [1, 2, 3]) await put(`old${n}.md`, `# Old ${n}\nA note nobody reads, number ${n}.\n`, before);
  await put('keep.md', '# Keep\nStays as it is.\n', before);
  // A session that writes three memory files (they land on disk after the viewer's first look).
  const ctx: LineContext = { cwd: repo, sessionId: S, at: SESSION_AT.toISOString() };
  await writeFile(path.join(home.claude, 'projects', key, `${S}.jsonl`), [
    prompt(ctx, 'Remember the three services'),
    ...[1, 2, 3].map((n) => write(ctx, path.join(memDir, `svc${n}.md`), `# Service ${n}\nPort 80${n}.\n`)),
  ].join('\n') + '\n');
});

afterAll(async () => {
  await home?.cleanup();
});

describe('bulk memory changes', () => {
  it('lists a bulk rewrite outside any session as one entry, and a session\'s writes as none', async () => {
    let viewer = await open();
    await observe(viewer);
    // The session's writes: three new files, at the time of its tool calls.
    for (const n of [1, 2, 3]) await put(`svc${n}.md`, `# Service ${n}\nPort 80${n}.\n`, new Date(SESSION_AT.getTime() + n * 1000));
    await observe(viewer);
    expect(await viewer.memoryHistory.bulkChanges()).toEqual([]);

    // Outside any session: alpha and beta merged into shipping.md, three old topics deleted, MEMORY.md rewritten.
    await rm(path.join(memDir, 'alpha.md'));
    await rm(path.join(memDir, 'beta.md'));
    await put('shipping.md', MERGED, t(5));
    for (const n of [1, 2, 3]) await rm(path.join(memDir, `old${n}.md`));
    await put('MEMORY.md', '# Memory\n- [Shipping](shipping.md)\n', t(20));
    await utimes(memDir, t(30), t(30));
    await observe(viewer);

    const changes = await viewer.memoryHistory.bulkChanges();
    expect(changes).toHaveLength(1);
    const [entry] = changes;
    expect(entry!.dir).toBe(memDir);
    expect(entry!.sourceId).toBe(key);
    expect([entry!.firstAt, entry!.lastAt]).toEqual([t(5).toISOString(), t(30).toISOString()]);
    expect(entry!.files.map((f) => [f.file, f.change, f.mergedInto, f.current])).toEqual([
      ['MEMORY.md', 'changed', null, true],
      ['alpha.md', 'deleted', 'shipping.md', true],
      ['beta.md', 'deleted', 'shipping.md', true],
      ['old1.md', 'deleted', null, true],
      ['old2.md', 'deleted', null, true],
      ['old3.md', 'deleted', null, true],
      ['shipping.md', 'created', null, true],
    ]);
    // Each file's versions before and after are readable through its history.
    const alpha = entry!.files.find((f) => f.file === 'alpha.md')!;
    expect(alpha.id).toBe(`${key}/alpha.md`);
    expect(await viewer.memoryHistory.version(alpha.id!, alpha.beforeVersionId!)).toBe(ALPHA);
    const shipping = entry!.files.find((f) => f.file === 'shipping.md')!;
    expect(shipping.beforeVersionId).toBeNull();
    expect(await viewer.memoryHistory.version(shipping.id!, shipping.afterVersionId!)).toBe(MERGED);
    expect(entry!.files.every((f) => f.restorable)).toBe(true);

    // Kept with the observed index: the same entry after a restart.
    await viewer.close();
    viewer = await open();
    expect(await viewer.memoryHistory.bulkChanges()).toEqual(changes);
    expect(await viewer.memoryHistory.bulkChanges('nope')).toEqual([]);
    await viewer.close();
  });
});

describe('the change records kept with the observed index', () => {
  it('keep the last 2,000, and read back only well-formed ones', async () => {
    const dir = path.join(home.root, 'cache-records');
    const observed = new ObservedVersions(dir);
    const sha = (n: number): string => createHash('sha256').update(String(n)).digest('hex');
    for (let n = 0; n < MAX_CHANGES + 5; n++) {
      observed.recordChange({ path: path.join(memDir, 'a.md'), dir: memDir, file: 'a.md', before: sha(n), after: sha(n + 1), at: t(n).toISOString() });
    }
    expect(observed.changes()).toHaveLength(MAX_CHANGES);
    expect(observed.changes()[0]!.before).toBe(sha(5));
    observed.observe(path.join(memDir, 'a.md'), Buffer.from('x'), BULK_AT);
    observed.save();
    const saved = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8')) as { changes: unknown[] };
    const good = { path: path.join(memDir, 'b.md'), dir: memDir, file: 'b.md', before: null, after: sha(1), at: t(0).toISOString() };
    saved.changes = [
      good,
      { ...good, path: 'relative.md' },
      { ...good, before: '../../etc/passwd' },
      { ...good, after: null },
      { ...good, at: 'yesterday' },
      { ...good, extra: 'dropped' },
      'nonsense',
    ];
    await writeFile(path.join(dir, 'index.json'), JSON.stringify(saved));
    expect(new ObservedVersions(dir).changes()).toEqual([good, good]);
  });
});
