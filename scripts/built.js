// Whether dist/ holds a complete build of the current sources. `npm ci` (prepare), `npm test`, `npm start`
// and `npm pack` (prepack) all need one: the first to build makes it, the others find it and skip the work.
// A build is current when the hash of its inputs, recorded at the end of a complete `npm run build`,
// equals the hash of the inputs now. Content, not mtimes: a checkout or a copy moves every mtime.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = path.join(ROOT, 'dist', '.build', 'inputs.sha256');
/** What a build reads (its node_modules through the lock file). */
const INPUTS = ['src', 'web', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** Outputs every complete build leaves; a stamp without them (a dist/ half deleted by hand) is not trusted. */
const OUTPUTS = ['dist/cli.js', 'dist/app.cjs', 'dist/server.cjs', 'dist/mcp.cjs', 'dist/scanWorker.js', 'dist/web/index.html', 'dist/THIRD-PARTY-NOTICES.txt'];

function addTree(hash, rel) {
  const full = path.join(ROOT, rel);
  if (!existsSync(full)) return;
  const entries = readdirSync(full, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') addTree(hash, child);
    } else if (entry.isFile()) {
      hash.update(`${child}\0`).update(readFileSync(path.join(ROOT, child))).update('\0');
    }
  }
}

/** The hash of the build's inputs. */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const rel of INPUTS) {
    const full = path.join(ROOT, rel);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) addTree(hash, rel);
    else hash.update(`${rel}\0`).update(readFileSync(full)).update('\0');
  }
  return hash.digest('hex');
}

export function isBuilt() {
  if (!OUTPUTS.every((rel) => existsSync(path.join(ROOT, rel)))) return false;
  let recorded;
  try {
    recorded = readFileSync(STAMP, 'utf8').trim();
  } catch {
    return false;
  }
  return recorded === inputsHash();
}

/** Called by each build step before it changes dist/: a partial build is never taken for a complete one. */
export function forgetBuilt() {
  rmSync(STAMP, { force: true });
}

export function recordBuilt() {
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${inputsHash()}\n`);
}
