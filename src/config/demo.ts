// The bundled demo home, copied into a temp dir so its absolute paths (session cwds, settings) are real
// and its files can be edited to watch live updates.
import { rmSync } from 'node:fs';
import { cp, readdir, readFile, rm, utimes, writeFile, mkdir, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from './packageRoot.js';

/** demo/ next to dist/ in the package (and in the repository). */
export const DEMO_SOURCE = path.join(PACKAGE_ROOT, 'demo');

const TEXT_FILES = /\.(md|jsonl|json)$/;

function encodeKey(p: string): string {
  return p.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Where this process puts its copy of the demo: `<tmp>/plan-memory-viewer-demo-<pid>`. One copy per
 * process: two demo viewers (or parallel tests) never share or delete each other's files.
 */
export function demoRoot(targetParent = os.tmpdir()): string {
  return path.join(targetParent, `plan-memory-viewer-demo-${process.pid}`);
}

const stagingOf = (root: string): string => `${root}.tmp.${process.pid}`;

/**
 * Removes the copy at `root`, and the half-made one a copy under way leaves. Synchronous, so that it
 * can run in the process's 'exit' event, after which nothing else runs to write into it.
 */
export function removeDemoSync(root: string): void {
  for (const dir of [root, stagingOf(root)]) rmSync(dir, { recursive: true, force: true });
}

/**
 * Materialises the demo into `root` (see demoRoot) and returns its claude dir.
 * `{{ROOT}}` in file contents becomes the absolute root; `{{ROOT_KEY}}` in names becomes the root's
 * project-folder encoding without its leading dash. File ages come from demo/manifest.json.
 */
export async function materializeDemo(source = DEMO_SOURCE, root = demoRoot()): Promise<string> {
  const staging = stagingOf(root);
  await rm(staging, { recursive: true, force: true });
  await cp(source, staging, { recursive: true });
  const rootKey = encodeKey(root).replace(/^-/, '');
  await rewrite(staging, root, rootKey);
  await applyAges(staging, source);
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await rename(staging, root);
  return path.join(root, 'home');
}

async function rewrite(dir: string, root: string, rootKey: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    let full = path.join(dir, entry.name);
    if (entry.name.includes('{{ROOT_KEY}}')) {
      const renamed = path.join(dir, entry.name.replaceAll('{{ROOT_KEY}}', rootKey));
      await rename(full, renamed);
      full = renamed;
    }
    if (entry.isDirectory()) await rewrite(full, root, rootKey);
    else if (entry.isFile() && TEXT_FILES.test(entry.name)) {
      const text = await readFile(full, 'utf8');
      // Paths go into JSON strings too: on POSIX a temp path needs no escaping.
      if (text.includes('{{ROOT')) await writeFile(full, text.replaceAll('{{ROOT_KEY}}', rootKey).replaceAll('{{ROOT}}', root));
    }
  }
}

async function applyAges(staging: string, source: string): Promise<void> {
  let manifest: { ages?: Record<string, unknown> };
  try {
    manifest = JSON.parse(await readFile(path.join(source, 'manifest.json'), 'utf8')) as typeof manifest;
  } catch {
    return;
  }
  const root = staging.replace(/\.tmp\.\d+$/, '');
  const rootKey = encodeKey(root).replace(/^-/, '');
  const now = Date.now();
  for (const [rel, hours] of Object.entries(manifest.ages ?? {})) {
    if (typeof hours !== 'number') continue;
    const when = new Date(now - hours * 3_600_000);
    await utimes(path.join(staging, rel.replaceAll('{{ROOT_KEY}}', rootKey)), when, when).catch(() => undefined);
  }
}
