// The plan list as last serialized, persisted with the plan cache: a restart that finds every plan as
// it was and every plan's session link as it was serves these bytes instead of building and serializing
// the list again (~40 ms of a warm start for 3,000 plans, in code that has not warmed up yet).
import { createHash } from 'node:crypto';
import { projectName } from '../files.js';

/** What the store needs from the session index: the session and cwd that wrote a plan. */
export interface PlanLinker {
  linkForPlan(filename: string): { sessionId: string; cwd: string | null } | null;
  /** A name for the links as they are: equal stamps, equal links (SessionIndex.viewStamp()); none: unknown. */
  viewStamp?(): string;
}

/** A plan's project: its session's (see projectName()). */
export function projectOf(cwd: string | null | undefined): string | null {
  return cwd ? projectName(cwd) : null;
}

/** The two fields of a listed plan that come from the sessions, not from its file. */
export function planLink(linker: PlanLinker, filename: string): { project: string | null; sessionId: string | null } {
  const link = linker.linkForPlan(filename);
  return { project: projectOf(link?.cwd), sessionId: link?.sessionId ?? null };
}

export interface SavedList {
  /** JSON of the list (kept in a file of its own: escaped into the cache's JSON it cost ~10 ms per save). */
  json: Buffer;
  /** SHA-256 of its bytes: they are served as they are, so a damaged copy must not pass (readSavedList). */
  digest: string;
  /** Per listed plan, in list order: its file name, sessionId and project, as the list has them. */
  links: (string | null)[];
  /** The linker's stamp when the links were looked up (null: it had none). */
  viewStamp: string | null;
}

/**
 * The saved form of a list's bytes, given its plans' links in list order (file name, sessionId, project
 * each) and the stamp of the links they were looked up in.
 */
export function saveList(links: (string | null)[], json: Buffer, viewStamp: string | null): SavedList {
  return { json, digest: digestOf(json), links, viewStamp };
}

/** The distinct projects the links name, sorted. */
export function linkedProjects(links: readonly (string | null)[]): string[] {
  const names = new Set<string>();
  for (let at = 2; at < links.length; at += 3) {
    const project = links[at];
    if (typeof project === 'string') names.add(project);
  }
  return [...names].sort();
}

function digestOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether the saved list is the one the store would build now, given that its plans are exactly the ones
 * the list was made from (same files, same facts): then only the session links can differ. When the
 * linker's answers are the very ones the list was made from (same stamp) they cannot; otherwise each link
 * is looked up again (linksHold). test/sessions/viewPatch.test.ts holds equal stamps to equal answers;
 * test/plans/restartUnchanged.test.ts checks both ways of deciding.
 */
export function listHolds(saved: SavedList, linker: PlanLinker): boolean {
  return (saved.viewStamp !== null && saved.viewStamp === linker.viewStamp?.()) || linksHold(saved, linker);
}

/** Whether every saved link is the one the linker gives now. */
export function linksHold(saved: SavedList, linker: PlanLinker): boolean {
  const { links } = saved;
  for (let at = 0; at < links.length; at += 3) {
    const filename = links[at];
    if (typeof filename !== 'string') return false;
    const now = planLink(linker, filename);
    if (now.sessionId !== links[at + 1] || now.project !== links[at + 2]) return false;
  }
  return true;
}

/**
 * A saved list as read back (its digest and links from the cache file, its bytes from their own), or null
 * when it is not one or the bytes are not the ones it was saved with: they are served as they are.
 */
export function readSavedList(value: unknown, json: Buffer | null): SavedList | null {
  if (json === null || typeof value !== 'object' || value === null) return null;
  const { digest, links, viewStamp } = value as Record<string, unknown>;
  if (typeof digest !== 'string' || digestOf(json) !== digest) return null;
  if (!Array.isArray(links) || links.length % 3 !== 0) return null;
  for (const item of links as unknown[]) if (item !== null && typeof item !== 'string') return null;
  return { json, digest, links: links as (string | null)[], viewStamp: typeof viewStamp === 'string' ? viewStamp : null };
}
