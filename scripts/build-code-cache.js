// Leaves V8's code cache of the bundles in dist/code-cache/, so that a first start from this checkout on the
// same Node runs from bytecode instead of compiling ~1.5 MB of JavaScript (see src/launcher.ts); the package
// leaves it out (package.json "files"), as only this exact Node could use it. It is what the
// launcher itself writes into the user cache dir: this script starts the built CLI on the demo home with
// a temporary cache dir, asks the API what a first visit asks, waits for both bundles' caches to be
// written (the launcher does that 3 s after start) and copies them. Run after build-server.js.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const target = path.join(dist, 'code-cache');
const xdg = await mkdtemp(path.join(os.tmpdir(), 'pmv-code-cache-'));
const BUNDLES = ['app.cjs', 'server.cjs'];
const TIMEOUT_MS = 60_000;

// TMPDIR: the demo's copy goes into the same temporary dir, removed below whatever happened to the CLI.
const env = { ...process.env, XDG_CACHE_HOME: xdg, TMPDIR: xdg, PMV_TRACE: '1' };
delete env.PMV_CODE_CACHE;
const child = spawn(process.execPath, [path.join(dist, 'cli.js'), '--demo', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
let err = '';
child.stdout.on('data', (c) => (out += c));
child.stderr.on('data', (c) => (err += c));
const exited = new Promise((resolve) => child.on('exit', resolve));

async function until(test, what) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!test()) {
    if (child.exitCode !== null) throw new Error(`the CLI exited before ${what}:\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`no ${what} after ${TIMEOUT_MS / 1000} s:\n${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  await until(() => /URL:\s+http:\/\/\S+/.test(out), 'banner');
  const url = /URL:\s+(http:\/\/\S+)/.exec(out)[1];
  // What the UI asks on a first visit, so that the cache holds those routes' functions too.
  const plans = await (await fetch(`${url}api/plans`)).json();
  const first = plans.plans[0]?.filename;
  for (const route of ['api/projects', 'api/memory', 'api/search?q=plan', 'api/memory/search?q=test',
    ...(first ? [`api/plans/${encodeURIComponent(first)}/content`] : [])]) {
    const res = await fetch(`${url}${route}`);
    if (!res.ok) throw new Error(`${route}: ${res.status}`);
    await res.arrayBuffer();
  }
  await until(() => BUNDLES.every((b) => err.includes(`code cache of ${b} written`)), 'code cache');
  child.kill('SIGTERM');
  await exited;
  const from = path.join(xdg, 'plan-memory-viewer');
  const files = (await readdir(from)).filter((f) => f.startsWith('code-') && f.endsWith('.bin'));
  if (files.length !== BUNDLES.length) throw new Error(`expected ${BUNDLES.length} code cache files, found ${files.join(', ')}`);
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const f of files) await copyFile(path.join(from, f), path.join(target, f));
  console.log(`code cache for Node ${process.version}: ${files.map((f) => `dist/code-cache/${f}`).join(', ')}`);
} catch (error) {
  child.kill('SIGKILL');
  throw error;
} finally {
  await rm(xdg, { recursive: true, force: true });
}
