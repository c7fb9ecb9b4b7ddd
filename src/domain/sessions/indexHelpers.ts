// Pure helpers of the session index: which slugs a plan name can stand for, which project folders
// exist, and what reading one log would take. No index state here.
import { lstatSync, readdirSync } from 'node:fs';
import { isFolderName } from './logFiles.js';
import { bytesToRead, sameStat, type TrackedLog } from '../transcripts/transcriptReader.js';
import { restRefused } from '../transcripts/savedFacts.js';
import type { SizedJob } from './scanWorkers.js';
import { isSlug } from './values.js';

/** A full refresh of at least this many project folders walks them in the workers too. */
export const WORKER_MIN_FOLDERS = 8;
const AGENT_MARK = '-agent-';
const AGENT_ID_RE = /^[A-Za-z0-9_-]+$/;

/** Slugs a plan file name can stand for: `<slug>.md` first, then `<slug>-agent-<id>.md` splits. */
export function candidateSlugs(planFilename: string): string[] {
  if (!planFilename.endsWith('.md')) return [];
  const base = planFilename.slice(0, -3);
  const slugs = isSlug(base) ? [base] : [];
  // A slug may itself contain "-agent-" (prompt-seeded slugs), so every split is a candidate.
  for (let at = base.lastIndexOf(AGENT_MARK); at > 0; at = base.lastIndexOf(AGENT_MARK, at - 1)) {
    const slug = base.slice(0, at);
    if (isSlug(slug) && AGENT_ID_RE.test(base.slice(at + AGENT_MARK.length))) slugs.push(slug);
  }
  return slugs;
}

export function isDirectory(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The project folder keys, or null when the projects dir cannot be listed (the walk reports why). */
export function listProjectFolders(projectsDir: string): string[] | null {
  try {
    return readdirSync(projectsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isFolderName(e.name))
      .map((e) => e.name);
  } catch {
    return null;
  }
}

/** Whether a full refresh of this projects dir is done by worker threads (so they are worth starting early). */
export function refreshesInWorkers(projectsDir: string): boolean {
  return (listProjectFolders(projectsDir)?.length ?? 0) >= WORKER_MIN_FOLDERS;
}

/**
 * The job that brings `file` up to date, null when it is unchanged, 'gone' when it is no regular file.
 * `readFrom` says what a read goes on from, asked only of a log that changed: it may parse restored facts.
 */
export function jobFor(file: string, known: TrackedLog | null, readFrom: (log: TrackedLog) => TrackedLog | null): SizedJob | null | 'gone' {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return 'gone';
  }
  if (!st.isFile()) return 'gone';
  // Unchanged, unless its restored facts were refused (completeRestore() sends those here to be read again).
  if (known !== null && sameStat(st, known) && !restRefused(known.facts)) return null;
  const previous = known === null ? null : readFrom(known);
  return { file, previous, bytes: bytesToRead(st, previous) };
}
