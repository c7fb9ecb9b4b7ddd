import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, TempHome, uuid } from '../helpers/home.js';
import { bannerUrl, runCli } from '../helpers/cli.js';

let home: TempHome;

beforeAll(async () => {
  home = await TempHome.create();
  const repo = await home.repo('webapp');
  await home.plan('linked-plan.md', '# Plan: Linked\n');
  await home.plan('other-plan.md', '# Other\n');
  await home.session(repo, uuid(1), ['linked-plan']);
  await home.write(`projects/${repo.replace(/[^A-Za-z0-9]/g, '-')}/memory/MEMORY.md`, '# Memory\n- [Topic](topic.md)\n');
  await home.write(`projects/${repo.replace(/[^A-Za-z0-9]/g, '-')}/memory/topic.md`, '---\nname: topic\n---\nA topic\n');
});

afterAll(async () => {
  await home?.cleanup();
});

function occupy(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('flags', () => {
  it('prints the version and the help', async () => {
    const version = runCli(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = runCli(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toContain('Usage: plan-memory-viewer');
    expect(help.stdout()).toContain('-p, --port N');
    expect(help.stdout()).toContain('--open');
  });

  it('takes -p as short for --port', async () => {
    const blocker = await occupy(0);
    const port = (blocker!.address() as net.AddressInfo).port;
    blocker!.close();
    const run = runCli(['-p', String(port), '--claude-dir', home.claude]);
    const url = await bannerUrl(run);
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it.each([['--nope'], ['--port', 'abc'], ['--port', '70000'], ['--port'], ['stray'], ['--allow-host', 'a b'], ['--stale-days', '0'], ['--read-only=yes']])(
    'answers bad flags %j with the error, one line pointing to --help, and exit code 2', async (...args) => {
      const run = runCli(args);
      expect(await run.exited).toBe(2);
      const lines = run.stderr().trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^plan-memory-viewer: \S/);
      expect(lines[1]).toBe('Run plan-memory-viewer --help to see every flag.');
    });

  it.each([
    [['--prot', '3000'], 'unknown flag --prot; did you mean --port?'],
    [['--stale-day=30'], 'unknown flag --stale-day; did you mean --stale-days?'],
    [['mcp', '--claudedir', '/x'], 'unknown flag --claudedir; did you mean --claude-dir?'],
    [['--nope'], 'unknown flag --nope'],
  ])('names a mistyped flag %j and the closest one it may have meant', async (args, said) => {
    const run = runCli(args);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toBe(`plan-memory-viewer: ${said}\nRun plan-memory-viewer --help to see every flag.\n`);
  });

  it('refuses a non-loopback --host without --expose', async () => {
    const run = runCli(['--host', '0.0.0.0', '--claude-dir', home.claude]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('--expose');
  });
});

describe('serving', () => {
  it('prints the URL, the claude dir and the counts, serves, and stops cleanly on SIGTERM', async () => {
    const run = runCli(['--port', '0', '--claude-dir', home.claude]);
    const url = await bannerUrl(run);
    expect(run.stdout()).toContain(`Claude dir:   ${home.claude}`);
    expect(run.stdout()).toMatch(/Plans:\s+2\n/);
    expect(run.stdout()).toMatch(/Projects:\s+1\n/);
    // What the UI's memory view counts: sources, and entries but the MEMORY.md indexes ("topics").
    const memory = (await (await fetch(`${url}api/memory`)).json()) as { sources: unknown[]; entries: { isIndex: boolean }[] };
    expect(memory.sources).toHaveLength(1);
    expect(memory.entries.filter((e) => !e.isIndex)).toHaveLength(1);
    expect(run.stdout()).toMatch(/Memory:\s+1 source, 1 topic\n/);
    expect(run.stdout()).not.toContain('DEMO');
    expect(run.stdout()).not.toContain('Warning');
    const res = await fetch(`${url}api/plans`);
    expect(res.status).toBe(200);
    const plans = ((await res.json()) as { plans: { filename: string; project: string | null }[] }).plans;
    expect(plans.find((p) => p.filename === 'linked-plan.md')!.project).toBe('webapp');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('saves its caches when stopped right after start (SIGINT), so the next start is warm', async () => {
    const cache = path.join(home.root, 'xdg-cache');
    const run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, XDG_CACHE_HOME: cache } });
    await bannerUrl(run);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    const entries = await readdir(path.join(cache, 'plan-memory-viewer'), { withFileTypes: true });
    const named = (f: string): string => f.replace(/-[0-9a-f]{16}(\.|$)/, '$1');
    // The folder of the plan contents the viewer observed is made with the first one it keeps, in the
    // background after the banner: a stop this early may come before it (CI saw both).
    // So is the memory files' (memory-history), and the find index is saved once its first build is done.
    const observed = entries.filter((e) => named(e.name) === 'history' || named(e.name) === 'memory-history');
    expect(observed.every((e) => e.isDirectory())).toBe(true);
    expect(entries.filter((e) => named(e.name) === 'find.bin').every((e) => e.isFile())).toBe(true);
    // The plan history's index (JSON lines) has something to save only once its first pass, in the
    // background after the banner, has read the logs: a stop this early may come before that (CI saw both;
    // test/history/historyCache.test.ts checks that a closed viewer saves it).
    const later = new Set(['history', 'memory-history', 'history.jsonl', 'find.bin']);
    const files = entries.filter((e) => !later.has(named(e.name))).map((e) => e.name).sort();
    expect(entries.filter((e) => named(e.name) === 'history.jsonl').every((e) => e.isFile())).toBe(true);
    // Saved at the stop: the plan facts, the plan list as served (its bytes in a file of their own), the
    // session index and each log's facts beside it.
    expect(files.map(named)).toEqual(['plans.json', 'plans.list.json', 'session-index.facts', 'session-index.json']);
    const file = (name: string): string => path.join(cache, 'plan-memory-viewer', files.find((f) => named(f) === name)!);
    const plans = JSON.parse(await readFile(file('plans.json'), 'utf8')) as { plans: { filename: string }[] };
    expect(plans.plans.map((p) => p.filename).sort()).toEqual(['linked-plan.md', 'other-plan.md']);
    const list = JSON.parse(await readFile(file('plans.list.json'), 'utf8')) as { filename: string }[];
    expect(list.map((p) => p.filename).sort()).toEqual(['linked-plan.md', 'other-plan.md']);
  });

  it('resolves a relative --claude-dir against the current directory, and honours CLAUDE_CONFIG_DIR', async () => {
    const relative = runCli(['--port', '0', '--claude-dir', 'claude'], { cwd: home.root });
    await bannerUrl(relative);
    expect(relative.stdout()).toContain(`Claude dir:   ${home.claude}`);
    relative.child.kill('SIGINT');
    expect({ code: await relative.exited, stderr: relative.stderr() }).toEqual({ code: 0, stderr: '' });

    const fromEnv = runCli(['--port', '0'], { env: { ...process.env, CLAUDE_CONFIG_DIR: home.claude } });
    await bannerUrl(fromEnv);
    expect(fromEnv.stdout()).toContain(`Claude dir:   ${home.claude}`);
    fromEnv.child.kill('SIGTERM');
    await fromEnv.exited;
  });

  it('fails with one clear line and exit code 1 when an explicit --port is busy', async () => {
    const blocker = await occupy(0);
    const port = (blocker!.address() as net.AddressInfo).port;
    try {
      const run = runCli(['--port', String(port), '--claude-dir', home.claude]);
      expect(await run.exited).toBe(1);
      expect(run.stderr().trim()).toBe(`plan-memory-viewer: cannot listen: port ${port} is already in use`);
    } finally {
      blocker!.close();
    }
  });

  it('moves to the next free port when the default 3000 is busy, and says so', async () => {
    // Held by the test itself where it can be: another holder may let go of it before the viewer starts.
    let blocker = await occupy(3000);
    for (let tries = 0; blocker === null && tries < 50; tries++) {
      await sleep(100);
      blocker = await occupy(3000);
    }
    try {
      const run = runCli(['--claude-dir', home.claude]);
      const url = await bannerUrl(run);
      expect(url).not.toContain(':3000/');
      expect(run.stdout()).toMatch(/port 3000 was busy, using \d+/);
      run.child.kill('SIGTERM');
      await run.exited;
    } finally {
      blocker?.close();
    }
  });
});

describe('--expose', () => {
  it('binds a non-loopback address only with a per-launch token, and warns', async () => {
    const run = runCli(['--host', '0.0.0.0', '--expose', '--port', '0', '--claude-dir', home.claude]);
    const url = await bannerUrl(run);
    try {
      expect(run.stdout()).toContain('WARNING');
      const token = new URL(url).searchParams.get('token')!;
      expect(token.length).toBeGreaterThanOrEqual(20);
      const port = new URL(url).port;
      const { request } = await import('../helpers/http.js');
      const without = await request(Number(port), { path: '/api/plans', host: `0.0.0.0:${port}` });
      expect(without.status).toBe(403);
      const withHeader = await request(Number(port), { path: '/api/plans', host: `0.0.0.0:${port}`, headers: { 'X-Viewer-Token': token } });
      expect(withHeader.status).toBe(200);
      const withQuery = await request(Number(port), { path: `/?token=${token}`, host: `0.0.0.0:${port}` });
      expect(String(withQuery.headers['set-cookie'])).toContain(`pmv_token=${token}`);
      const withCookie = await request(Number(port), { path: '/api/plans', host: `0.0.0.0:${port}`, headers: { Cookie: `pmv_token=${token}` } });
      expect(withCookie.status).toBe(200);
      const foreignHost = await request(Number(port), { path: '/api/plans', host: 'evil.example', headers: { 'X-Viewer-Token': token } });
      expect(foreignHost.status).toBe(403);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });
});
