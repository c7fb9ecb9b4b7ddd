// Where plans live: the shared <claude>/plans folder plus the plansDirectory of every known project.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { findStringSetting } from '../../config/settings.js';
import type { Logger } from '../types.js';

export interface PlanFolder {
  dir: string;
  /** The project root whose plansDirectory named this folder; null for the shared folder. */
  projectRoot: string | null;
}

// Synchronous lookups: hundreds of projects are checked at a time, mostly finding nothing, where each
// awaited call cost more than the lookup itself. The native realpath is one system call; the JavaScript one
// lstats every component of the path (~10 ms of a warm start for 300 projects).
function realpathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * A project's plansDirectory, resolved as Claude Code does: relative to the project root and accepted only
 * inside it. Absolute paths outside, backslashes on POSIX and symlink escapes fall back to the default
 * (null here); `~` is not expanded, so `~/x` is a folder literally named `~` inside the project.
 */
export async function resolvePlansDirectory(value: string, projectRoot: string): Promise<string | null> {
  if (path.sep === '/' && value.includes('\\')) return null;
  if (value.includes('\0')) return null;
  const target = path.resolve(projectRoot, value);
  if (!isInside(target, projectRoot)) return null;
  // The folder may not exist yet (it is watched until it appears); when it or an ancestor exists, its
  // real path must stay inside the project's real path.
  const realRoot = realpathOrNull(projectRoot) ?? projectRoot;
  let probe = target;
  while (isInside(probe, projectRoot)) {
    const real = realpathOrNull(probe);
    if (real !== null) {
      const rest = path.relative(probe, target);
      return isInside(path.join(real, rest), realRoot) ? target : null;
    }
    const parent = path.dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  return target;
}

/** Every plans folder: the shared one first, then each known project's plansDirectory (deduplicated). */
export async function discoverPlanFolders(
  claudeDir: string,
  projectRoots: Iterable<string>,
  logger?: Logger,
): Promise<PlanFolder[]> {
  const shared = path.join(claudeDir, 'plans');
  const folders: PlanFolder[] = [{ dir: shared, projectRoot: null }];
  const seen = new Set([shared]);
  const roots = [...new Set(projectRoots)].sort();
  for (const root of roots) {
    if (!path.isAbsolute(root) || realpathOrNull(root) === null) continue;
    const setting = findStringSetting('plansDirectory', root, claudeDir, logger);
    if (!setting) continue;
    const dir = await resolvePlansDirectory(setting.value, root);
    if (dir === null) {
      logger?.warn(`ignoring plansDirectory "${setting.value}" from ${setting.file}: it leaves the project ${root}`);
      continue;
    }
    if (seen.has(dir)) continue;
    seen.add(dir);
    folders.push({ dir, projectRoot: root });
  }
  return folders;
}
