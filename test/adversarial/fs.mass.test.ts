// Mass changes made by ANOTHER process, as Claude Code makes them: 10,000 plans created within about a
// second and then deleted, and bursts of atomic-rename saves, while requests keep coming. The home lives
// on tmpfs when there is one, so the writer really is that fast (this machine's disk needs ~15 s for
// 10,000 small files, which would hide the burst).
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { eventually, sleep, TempHome } from '../helpers/home.js';
import { request } from '../helpers/http.js';
import { harness, subscribe, type Harness } from './support.js';

const run = promisify(execFile);
let home: TempHome;
let server: Harness | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
  await home?.cleanup();
});

/** A TempHome on /dev/shm (tmpfs) when it is writable, else in the usual temp dir. */
async function fastHome(prefix: string): Promise<TempHome> {
  let shm: boolean;
  try {
    accessSync('/dev/shm', constants.W_OK);
    shm = os.platform() === 'linux';
  } catch {
    shm = false;
  }
  const saved = process.env.TMPDIR;
  if (shm) process.env.TMPDIR = '/dev/shm';
  try {
    return await TempHome.create(prefix);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** Runs a small synchronous fs script in a separate node process; returns what it printed. */
async function inOtherProcess(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['-e', `const fs = require('fs'); const path = require('path'); ${script}`]);
  return stdout.trim();
}

const planNames = async (s: Harness) => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.map((p) => p.filename).sort();

describe('mass changes from another process', () => {
  it('follows 10,000 plans created at once, then all deleted, with every request answered', async () => {
    home = await fastHome('pmv-adv-mass-');
    const dir = path.join(home.claude, 'plans');
    await mkdir(dir, { recursive: true });
    server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
    const s = server;
    const stream = await subscribe(s.port);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const statuses = new Map<number, number>();
    let stop = false;
    const poll = (async () => {
      while (!stop) {
        for (const p of ['/api/plans', '/api/search?q=mass', '/api/projects']) {
          const status = (await request(s.port, { path: p })).status;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
        // A client refetching several times a second (the UI does it on change events), not a flood:
        // the soak test floods, with fewer plans.
        await sleep(100);
      }
    })();
    try {
      const loop = `const d = ${JSON.stringify(dir)}; const t = Date.now(); for (let i = 0; i < 10000; i++) { const f = path.join(d, 'mass-' + String(i).padStart(5, '0') + '.md');`;
      const createMs = Number(await inOtherProcess(`${loop} fs.writeFileSync(f, '# Mass ' + i + '\\nmass\\n'); } console.log(Date.now() - t);`));
      // inotify's queue overflows in this burst; the viewer must still end up with every plan.
      expect(await eventually(() => s.viewer.plans.count === 10_000, 60_000, 100)).toBe(true);
      expect((await planNames(s)).length).toBe(10_000);
      const hits = JSON.parse((await request(s.port, { path: '/api/search?q=MASS' })).body) as { filenames: string[] };
      expect(hits.filenames).toHaveLength(10_000);
      const deleteMs = Number(await inOtherProcess(`${loop} fs.unlinkSync(f); } console.log(Date.now() - t);`));
      expect(await eventually(() => s.viewer.plans.count === 0, 60_000, 100)).toBe(true);
      expect(await planNames(s)).toEqual([]);
      expect(await readdir(dir)).toEqual([]);
      expect(stream.count('plans')).toBeGreaterThan(0);
      stop = true;
      await poll;
      expect([...statuses.keys()]).toEqual([200]);
      // Figures for docs/robustness.md (not asserted: no wall-clock assertions).
      console.info(`[robustness] 10,000 plans: created in ${createMs} ms, deleted in ${deleteMs} ms by another process; ` +
        `${[...statuses.values()].reduce((a, b) => a + b, 0)} requests during, all 200; max event-loop delay ${(loopDelay.max / 1e6).toFixed(0)} ms`);
    } finally {
      stop = true;
      await poll;
      stream.close();
      loopDelay.disable();
    }
  }, 150_000);

  it('never drops a plan or memory file from a listing during bursts of atomic-rename saves', async () => {
    home = await fastHome('pmv-adv-atomic-');
    const dir = path.join(home.claude, 'plans');
    const memDir = path.join(home.claude, 'projects', '-home-u-p', 'memory');
    await mkdir(dir, { recursive: true });
    await mkdir(memDir, { recursive: true });
    const names = ['alpha.md', 'beta.md', 'gamma.md'];
    for (const name of names) await writeFile(path.join(dir, name), '# v0\n');
    await writeFile(path.join(memDir, 'MEMORY.md'), '# Memory\n');
    await writeFile(path.join(memDir, 'saved.md'), '---\nname: saved\n---\nv0\n');
    server = await harness({ claudeDir: home.claude, homeDir: home.root, watch: true });
    const s = server;
    let stop = false;
    let listings = 0;
    const missing: string[] = [];
    const poll = (async () => {
      while (!stop) {
        const listed = new Set(await planNames(s));
        for (const name of names) if (!listed.has(name)) missing.push(name);
        const entries = (await s.json<{ entries: MemoryEntry[] }>('/api/memory')).entries;
        if (!entries.some((e) => e.filename === 'saved.md')) missing.push('saved.md');
        // A full rescan lists the folder while renames land in it.
        expect((await request(s.port, { method: 'POST', path: '/api/refresh' })).status).toBe(200);
        listings++;
      }
    })();
    // Claude Code's own pattern: write <name>.tmp.<pid>.<hex>, then rename over <name>. The saves go on until
    // the listings above have run a few times beside them (a fixed count could end before the first listing on
    // a fast machine); the writer prints its last version.
    const SAVES = 300;
    const stopFile = path.join(home.root, 'stop-saving');
    const writer = inOtherProcess(`
      const targets = [...${JSON.stringify(names.map((n) => path.join(dir, n)))}, ${JSON.stringify(path.join(memDir, 'saved.md'))}];
      let v = 0;
      while (v < ${SAVES} || !fs.existsSync(${JSON.stringify(stopFile)})) {
        v++;
        for (const file of targets) {
          const tmp = file + '.tmp.' + process.pid + '.' + v.toString(16).padStart(12, '0');
          fs.writeFileSync(tmp, file.endsWith('saved.md') ? '---\\nname: saved\\n---\\nv' + v + '\\n' : '# v' + v + '\\n');
          fs.renameSync(tmp, file);
        }
      }
      console.log(v);`);
    // Counted from the first save seen, so the listings run while the saves do.
    expect(await eventually(async () => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.some((p) => p.title !== 'v0'), 30_000)).toBe(true);
    const seen = listings;
    expect(await eventually(async () => listings >= seen + 4, 30_000)).toBe(true);
    await writeFile(stopFile, '');
    const last = Number(await writer);
    expect(last).toBeGreaterThanOrEqual(SAVES);
    expect(await eventually(async () => (await s.json<{ plans: PlanMetadata[] }>('/api/plans')).plans.every((p) => p.title === `v${last}`), 15_000)).toBe(true);
    stop = true;
    await poll;
    expect(missing).toEqual([]);
    expect(await planNames(s)).toEqual(names);
    const content = await request(s.port, { path: `/api/memory/content?id=${encodeURIComponent('-home-u-p/saved.md')}` });
    expect(JSON.parse(content.body)).toEqual({ content: `---\nname: saved\n---\nv${last}\n` });
    expect((await readdir(dir)).sort()).toEqual(names);
  }, 60_000);
});
