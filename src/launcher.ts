// The process entry (bundled as dist/cli.js): runs the application bundle (dist/app.cjs, built from
// cli.ts) from V8 bytecode that an earlier run left in the user cache dir. Node 20 has no compile cache
// for modules, and compiling the ~1.4 MB bundle, then each function on its first call, took ~0.1 s of
// every start. This is what Node 22's module.enableCompileCache() does, done by hand.
//
// A code cache is only an optimization: anything wrong with it (missing, corrupt, another bundle, another
// V8, an unwritable cache dir) means compiling from source, as without one.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { cacheDir } from './config/cacheDir.js';

const APP = fileURLToPath(new URL('./app.cjs', import.meta.url));
/** The cache is written once the server has answered its first requests, so it holds their functions too. */
const WRITE_AFTER_MS = 3000;
const DIGEST_BYTES = 32;
const trace = process.env.PMV_TRACE
  ? (message: string): void => void process.stderr.write(`plan-memory-viewer: ${message}\n`)
  : null;

function digest(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
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

/** Atomically (temp file, then rename), after removing the caches of other bundles and runtimes. */
function writeCodeCache(file: string, data: Buffer): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.startsWith('code-') && path.join(dir, name) !== file) rmSync(path.join(dir, name), { force: true });
  }
  const tmp = `${file}.tmp.${process.pid}`;
  writeFileSync(tmp, Buffer.concat([digest(data), data]));
  renameSync(tmp, file);
}

function run(): void {
  const source = readFileSync(APP, 'utf8').replace(/^#!.*/, '');
  const useCache = process.env.PMV_CODE_CACHE !== '0';
  const key = digest(`${source}\0${process.version}\0${process.arch}`).toString('hex').slice(0, 24);
  const file = path.join(cacheDir(), `code-${key}.bin`);
  const found = useCache ? readCodeCache(file) : 'absent';
  const cachedData = typeof found === 'string' ? undefined : found;
  // The CommonJS wrapper, as Node's own loader builds it; the bundle is a CommonJS script.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: APP,
    cachedData,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  trace?.(`code cache ${!useCache ? 'off' : used ? 'used' : cachedData ? 'rejected' : found}`);
  if (useCache && !used) {
    setTimeout(() => {
      try {
        writeCodeCache(file, script.createCachedData());
        trace?.('code cache written');
      } catch (error) {
        trace?.(`code cache not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, WRITE_AFTER_MS).unref();
  }
  const main = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  main.call(module.exports, module.exports, createRequire(APP), module, APP, path.dirname(APP));
}

run();
