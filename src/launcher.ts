// The process entry (bundled as dist/cli.js): runs the application bundles from V8 bytecode that an
// earlier run left in the user cache dir. Node 20 has no compile cache for modules, and compiling the
// bundles, then each function on its first call, took ~0.1 s of every start. This is what Node 22's
// module.enableCompileCache() does, done by hand.
//
// There are two bundles: dist/app.cjs (the CLI, the domain and the watchers) and dist/server.cjs (the
// HTTP server, most of the code). The application asks for the second with require('./server.cjs')
// once the scan is under way, so compiling it overlaps the scan instead of delaying its start.
//
// A first run has no cache of its own yet: from a clone, it uses the one the build left in dist/code-cache/
// (made by scripts/build-code-cache.js, from a run of the demo home), when that build ran on this same Node.
// Its name holds the bundle's hash and the runtime's version, so another Node looks for a file that is not
// there. The package does not ship it: an install runs on whatever Node its user has.
//
// A code cache is only an optimization: anything wrong with it (missing, corrupt, another bundle, another
// V8, an unwritable cache dir) means compiling from source, as without one.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type { Worker as WorkerType } from 'node:worker_threads';
import { cacheDir, SESSION_INDEX_CACHE } from './config/cacheDir.js';
import { defaultPoolSize, leavePrestarted } from './domain/sessions/prestart.js';

const DIST = path.dirname(fileURLToPath(import.meta.url));
const SHIPPED_CACHE_DIR = path.join(DIST, 'code-cache');
/** A bundle's cache is written once the server has answered its first requests, so it holds their functions too. */
const WRITE_AFTER_MS = 3000;
const DIGEST_BYTES = 32;
const trace = process.env.PMV_TRACE
  ? (message: string): void => void process.stderr.write(`plan-memory-viewer: ${message}\n`)
  : null;

function digest(...parts: (Buffer | string)[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * The cached bytecode, verified: V8 checks its own version and flags but only the length of the source,
 * and release builds do not checksum the payload, so the file carries the SHA-256 of what follows and
 * its name carries the hash of the bundle and runtime it was made for.
 */
function readCodeCache(file: string): Buffer | 'absent' | 'corrupt' {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return 'absent';
  }
  const data = raw.subarray(DIGEST_BYTES);
  return raw.length > DIGEST_BYTES && digest(data).equals(raw.subarray(0, DIGEST_BYTES)) ? data : 'corrupt';
}

/**
 * Atomically (temp file, then rename), after removing the caches of other builds and runtimes: every
 * code cache file but this one and those of the other bundles.
 */
function writeCodeCache(file: string, bundle: string, data: Buffer): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const others = BUNDLES.filter((b) => b !== bundle).map(cachePrefix);
  for (const name of readdirSync(dir)) {
    if (name.startsWith('code-') && path.join(dir, name) !== file && !others.some((p) => name.startsWith(p))) {
      rmSync(path.join(dir, name), { force: true });
    }
  }
  const tmp = `${file}.tmp.${process.pid}`;
  writeFileSync(tmp, Buffer.concat([digest(data), data]));
  renameSync(tmp, file);
}

const BUNDLES = ['app.cjs', 'server.cjs', 'mcp.cjs'];
const cachePrefix = (bundle: string): string => `code-${path.basename(bundle, '.cjs')}-`;
const loaded = new Map<string, unknown>();

/** Runs a CommonJS bundle of dist/ (once; later calls return its exports), from the code cache if it has one. */
function runBundle(name: string): unknown {
  if (loaded.has(name)) return loaded.get(name);
  const filename = path.join(DIST, name);
  const bytes = readFileSync(filename);
  const source = bytes.toString('utf8').replace(/^#!.*/, '');
  const useCache = process.env.PMV_CODE_CACHE !== '0';
  // The bytes are hashed, not the decoded source: hashing a string re-encodes it (1.5 MB: ~4 ms, ~1 ms as bytes).
  const key = digest(bytes, `\0${process.version}\0${process.arch}`).toString('hex').slice(0, 24);
  const file = path.join(cacheDir(), `${cachePrefix(name)}${key}.bin`);
  const own = useCache ? readCodeCache(file) : 'absent';
  const shipped = useCache && typeof own === 'string' ? readCodeCache(path.join(SHIPPED_CACHE_DIR, path.basename(file))) : 'absent';
  const cachedData = typeof own !== 'string' ? own : typeof shipped !== 'string' ? shipped : undefined;
  // The CommonJS wrapper, as Node's own loader builds it.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    // The name stack traces give. Not the file's path: V8 keeps the name a code cache was made under, and
    // the shipped one was made where the package was built, so the same name is used everywhere.
    filename: `plan-memory-viewer/dist/${name}`,
    cachedData,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const ownUsed = used && typeof own !== 'string';
  const shippedStatus = shipped === 'absent' ? '' : `, shipped one ${typeof shipped === 'string' ? shipped : used ? 'used' : 'rejected'}`;
  const status = !useCache ? 'off' : ownUsed ? 'used' : typeof own !== 'string' ? 'rejected' : `${own}${shippedStatus}`;
  trace?.(`code cache of ${name} ${status}`);
  // The user's own cache is written even after a start from the shipped one: it also holds the functions
  // this user's first requests compiled.
  if (useCache && !ownUsed) {
    trace?.(`code cache of ${name} to be written in ${WRITE_AFTER_MS} ms`);
    setTimeout(() => {
      try {
        writeCodeCache(file, name, script.createCachedData());
        trace?.(`code cache of ${name} written`);
      } catch (error) {
        trace?.(`code cache of ${name} not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, WRITE_AFTER_MS).unref();
  }
  const main = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  main.call(module.exports, module.exports, bundleRequire(filename), module, filename, DIST);
  loaded.set(name, module.exports);
  return module.exports;
}

/** Node's require for `filename`, except that the sibling bundles (`./<name>.cjs`) run through runBundle(). */
function bundleRequire(filename: string): NodeJS.Require {
  const nodeRequire = createRequire(filename);
  const require = ((id: string) =>
    /^\.\/[\w-]+\.cjs$/.test(id) ? runBundle(id.slice(2)) : nodeRequire(id)) as NodeJS.Require;
  return Object.assign(require, {
    resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions,
  });
}

/**
 * A first run on this machine (no session index in the cache dir yet) reads every log: its scan workers
 * are started now, to boot while the application compiles (see prestart.ts). Later runs need none at
 * start, and --help, --version or the (small) demo home none at all.
 */
function prestartScanWorkers(): void {
  if (process.argv.some((arg) => ['--help', '-h', '--version', '-v', '--demo'].includes(arg))) return;
  try {
    if (readdirSync(cacheDir()).some((name) => name.startsWith(`${SESSION_INDEX_CACHE}-`))) return;
  } catch {
    // No cache dir yet: a first run.
  }
  try {
    // Required here, not imported: later runs do not load worker_threads before the application does.
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as { Worker: typeof WorkerType };
    const entry = new URL('./scanWorker.js', import.meta.url);
    leavePrestarted(Array.from({ length: defaultPoolSize() }, () => new Worker(entry)));
  } catch (error) {
    trace?.(`scan workers not prestarted: ${error instanceof Error ? error.message : String(error)}`);
  }
}

prestartScanWorkers();
runBundle('app.cjs');
