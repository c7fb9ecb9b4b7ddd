// The plan list's JSON, as JSON.stringify(list()) would give it, built from a per-record head (every field
// but the two a session link decides) and the links. At start the list is the last thing built before the
// first answer, after the session scan: its 3,000 objects and their serialization took ~25-30 ms of that
// tail. The heads are made as each plan is read (planReads.ts), while the logs are still being scanned;
// what is left after the scan is one loop over the plans for their links.
import type { PlanMetadata } from '../types.js';
import type { PlanFileRecord } from './planFile.js';
import { projectOf, type PlanLinker } from './savedList.js';

const heads = new WeakMap<PlanFileRecord, string>();

/** A plan's list entry but its link fields, in PlanMetadata's order (which the JSON keeps). */
export function listedFields(r: PlanFileRecord): Omit<PlanMetadata, 'project' | 'sessionId'> {
  return {
    filename: r.filename, filepath: r.filepath, title: r.title, size: r.size, modified: r.modified,
    created: r.created, lineCount: r.lineCount, wordCount: r.wordCount,
  };
}

/** `{"filename":…,"wordCount":N,`: the entry up to its link fields (records never change: they are replaced). */
export function listHead(r: PlanFileRecord): string {
  let head = heads.get(r);
  if (head === undefined) {
    head = `${JSON.stringify(listedFields(r)).slice(0, -1)},`;
    heads.set(r, head);
  }
  return head;
}

/**
 * JSON.stringify() of the list entries of `records` (in list order), each with its session link, and the
 * links as listed (file name, sessionId, project per plan) appended to `links`. At start this runs once,
 * right after the scan, with nothing else left before the first answer, in code not optimized yet. One
 * plain loop: with a callback per plan and the link wrapped in two objects, V8 spent about twice as long
 * optimizing these functions on its background threads, competing with the loop, which ended first.
 */
export function planListJson(records: readonly PlanFileRecord[], linker: PlanLinker, links: (string | null)[]): string {
  const parts = new Array<string>(records.length);
  // Many plans share a project: the JSON of each is made once.
  const projectJson = new Map<string, string>();
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const link = linker.linkForPlan(record.filename);
    const project = projectOf(link?.cwd);
    let projectText = 'null';
    if (project !== null) {
      projectText = projectJson.get(project) ?? JSON.stringify(project);
      projectJson.set(project, projectText);
    }
    const sessionId = link?.sessionId ?? null;
    links.push(record.filename, sessionId, project);
    parts[i] = `${listHead(record)}"project":${projectText},"sessionId":${JSON.stringify(sessionId)}}`;
  }
  return `[${parts.join(',')}]`;
}
