// A restart that finds nothing moved since the caches were saved takes them as they are (a stat per file,
// no walk, no read) and serves the plan list saved with them. Whatever did move (a plan, a log, a link,
// the saved bytes themselves), the list must be exactly the one a fresh scan gives.
import { createHash } from 'node:crypto';
import { appendFile, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { Viewer } from '../../src/viewer.js';
import { conversationLine, encodeCwd, TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let cache: string;
let warnings: string[];
let phases: string[];

const open = (cacheDir: string | null): Promise<Viewer> => {
  phases = [];
  return Viewer.open({
    claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) }, watch: false, cacheDir,
    trace: (phase) => phases.push(phase),
  });
};

const listJson = (viewer: Viewer): string => viewer.plans.listJson().toString('utf8');

/** The list a fresh scan (no cache) gives now. */
async function freshList(): Promise<string> {
  const fresh = await open(null);
  const json = listJson(fresh);
  await fresh.close();
  return json;
}

/** Opens from the cache: the list it serves, and whether it took the caches as they were. */
async function restart(): Promise<{ json: string; confirmed: boolean }> {
  const viewer = await open(cache);
  const confirmed = phases.includes('caches confirmed');
  const json = listJson(viewer);
  await viewer.close();
  return { json, confirmed };
}

async function planCacheFile(): Promise<string> {
  const name = (await readdir(cache)).find((f) => f.startsWith('plans-'));
  if (!name) throw new Error('no plan cache was written');
  return path.join(cache, name);
}

interface CachedList { json: string; digest: string; links: (string | null)[] }

/**
 * Edits the saved list: its bytes (in a file of their own) and, in the plan cache, their digest and links.
 * The list's view stamp is left out: each of its links is then looked up again at a restart.
 */
async function editCachedList(edit: (list: CachedList) => void): Promise<void> {
  const file = await planCacheFile();
  const bytesFile = file.replace(/\.json$/, '.list.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as { list?: Omit<CachedList, 'json'> };
  if (!doc.list) throw new Error('the plan cache holds no list');
  const list: CachedList = { ...doc.list, json: await readFile(bytesFile, 'utf8') };
  edit(list);
  doc.list = { digest: list.digest, links: list.links };
  await writeFile(file, JSON.stringify(doc));
  await writeFile(bytesFile, list.json);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A directory's listing is only trusted when it had not changed for a while before it was listed (see
 * SETTLED_MS in logFiles.ts): the fixture's directories are dated an hour back, as on a real machine.
 */
async function settle(dir: string): Promise<void> {
  const past = new Date(Date.now() - 3_600_000);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await settle(path.join(dir, entry.name));
  }
  await utimes(dir, past, past);
}

const log = (cwd: string, id: number): string => path.join(home.claude, 'projects', encodeCwd(cwd), `${uuid(id)}.jsonl`);

beforeEach(async () => {
  home = await TempHome.create();
  cache = path.join(home.root, 'cache');
  warnings = [];
  await home.session('/work/alpha', uuid(1), ['linked-plan']);
  await home.session('/work/beta', uuid(2), [null]);
  await home.write(`projects/${encodeCwd('/work/beta')}/${uuid(2)}/subagents/agent-a1.jsonl`,
    `${conversationLine('/work/beta', uuid(2), 'linked-plan-agent-a1')}\n`);
  await home.plan('linked-plan.md', '# Linked\n\nwritten in alpha\n', new Date('2026-01-01T00:00:00Z'));
  await home.plan('linked-plan-agent-a1.md', '# Agent plan\n', new Date('2026-01-02T00:00:00Z'));
  await home.plan('orphan-plan.md', '# Orphan\n', new Date('2026-01-03T00:00:00Z'));
  await settle(path.join(home.claude, 'projects'));
  // The first run scans and saves the caches, the list with them (it is built for the first request).
  const first = await open(cache);
  listJson(first);
  await first.close();
});

afterEach(async () => {
  await home.cleanup();
});

describe('a restart with nothing moved', () => {
  it('takes the caches as they are and serves the saved list, which is the fresh one', async () => {
    const { json, confirmed } = await restart();
    expect(confirmed).toBe(true);
    expect(json).toBe(await freshList());
    expect(JSON.parse(json)).toContainEqual(expect.objectContaining({ filename: 'linked-plan.md', project: 'alpha', sessionId: uuid(1) }));
    // The bytes served are the saved ones: a list only the cache holds (with a matching digest) comes back.
    await editCachedList((list) => {
      list.json = list.json.replace('"Orphan"', '"Only the cache says this"');
      list.digest = sha256(list.json);
    });
    expect((await restart()).json).toContain('Only the cache says this');
    expect(warnings).toEqual([]);
  });

  it('keeps the list in a file of its own, not rewritten by a restart that changed nothing', async () => {
    const bytesFile = (await planCacheFile()).replace(/\.json$/, '.list.json');
    const before = await stat(bytesFile);
    expect(JSON.parse(await readFile(bytesFile, 'utf8'))).toEqual(JSON.parse(await freshList()));
    // Restarts that change nothing and one where a plan was added: only the last writes the list again.
    await restart();
    await home.plan('new-plan.md', '# New\n');
    expect((await stat(bytesFile)).mtimeMs).toBe(before.mtimeMs);
    const viewer = await open(cache);
    listJson(viewer);
    await viewer.close();
    expect(await readFile(bytesFile, 'utf8')).toBe(await freshList());
    expect(await readFile(bytesFile, 'utf8')).toContain('new-plan.md');
  });

  it('rebuilds the list when saved bytes do not match their digest', async () => {
    await editCachedList((list) => {
      list.json = list.json.replace('"Orphan"', '"Damaged"');
    });
    const { json, confirmed } = await restart();
    expect(confirmed).toBe(true);
    expect(json).toBe(await freshList());
    expect(json).toContain('"Orphan"');
  });

  it('serves the saved list without looking up a link when it was made from the answers the sessions saved', async () => {
    const lookups = vi.spyOn(SessionIndex.prototype, 'linkForPlan');
    try {
      const { json, confirmed } = await restart();
      expect(confirmed).toBe(true);
      expect(lookups).not.toHaveBeenCalled();
      expect(json).toBe(await freshList());
    } finally {
      lookups.mockRestore();
    }
  });

  it('looks the links up again when the list was made from other answers than the sessions saved', async () => {
    // The plan cache of this run, then a run where a log links the orphan plan and both caches are saved
    // again; then the older plan cache back, as if that run had stopped before saving its plans.
    const file = await planCacheFile();
    const older = [await readFile(file), await readFile(file.replace(/\.json$/, '.list.json'))] as const;
    await appendFile(log('/work/beta', 2), `${conversationLine('/work/beta', uuid(2), 'orphan-plan')}\n`);
    await settle(path.join(home.claude, 'projects'));
    const second = await open(cache);
    expect(listJson(second)).toContain(uuid(2));
    await second.close();
    await writeFile(file, older[0]);
    await writeFile(file.replace(/\.json$/, '.list.json'), older[1]);
    const lookups = vi.spyOn(SessionIndex.prototype, 'linkForPlan');
    try {
      const { json, confirmed } = await restart();
      expect(confirmed).toBe(true);
      expect(lookups).toHaveBeenCalled();
      expect(json).toBe(await freshList());
      expect(JSON.parse(json)).toContainEqual(expect.objectContaining({ filename: 'orphan-plan.md', project: 'beta', sessionId: uuid(2) }));
    } finally {
      lookups.mockRestore();
    }
  });

  it('rebuilds the list when a saved link is not what the sessions say now', async () => {
    // As if the list had been saved before the session index caught up with a log.
    await editCachedList((list) => {
      const at = list.links.indexOf('linked-plan.md');
      list.links[at + 1] = uuid(9);
      list.json = list.json.replace(uuid(1), uuid(9));
      list.digest = sha256(list.json);
    });
    const { json, confirmed } = await restart();
    expect(confirmed).toBe(true);
    expect(json).toBe(await freshList());
    expect(json).toContain(uuid(1));
  });
});

describe('a restart with something moved', () => {
  const changes: [string, () => Promise<unknown>][] = [
    ['a plan edited', () => home.plan('orphan-plan.md', '# Orphan, edited\n', new Date('2026-01-03T00:00:00Z'))],
    ['a plan added', () => home.plan('new-plan.md', '# New\n')],
    ['a log line linking a plan', () => appendFile(log('/work/beta', 2), `${conversationLine('/work/beta', uuid(2), 'orphan-plan')}\n`)],
    ['a new log in a known folder', () => home.session('/work/alpha', uuid(3), ['orphan-plan'])],
    ['a new subagent log', () => home.write(`projects/${encodeCwd('/work/alpha')}/${uuid(1)}/subagents/agent-b2.jsonl`,
      `${conversationLine('/work/alpha', uuid(1), 'orphan-plan')}\n`)],
    ['a new project folder', () => home.session('/work/gamma', uuid(4), ['orphan-plan'])],
  ];
  for (const [what, change] of changes) {
    it(`scans instead: ${what}`, async () => {
      const before = (await restart()).json;
      await change();
      const { json, confirmed } = await restart();
      expect(confirmed).toBe(false);
      expect(json).toBe(await freshList());
      expect(json).not.toBe(before);
    });
  }

  it('keeps the plans that are left but rebuilds the list when a plan was deleted', async () => {
    await rm(path.join(home.claude, 'plans', 'orphan-plan.md'));
    const { json, confirmed } = await restart();
    // Every plan still there is as it was: nothing needs reading, but the saved list names one too many.
    expect(confirmed).toBe(true);
    expect(json).toBe(await freshList());
    expect(json).not.toContain('orphan-plan.md');
  });

  it('scans instead when a directory changed too soon before it was listed', async () => {
    // Listed right after a change: its mtime may not show a change made in the same tick.
    const alpha = path.join(home.claude, 'projects', encodeCwd('/work/alpha'));
    const now = new Date();
    await utimes(alpha, now, now);
    await (await open(cache)).close();
    expect((await restart()).confirmed).toBe(false);
  });
});
