// The plan list's JSON, as JSON.stringify(list()) would give it, built from a per-record head (every field
// but the two a session link decides) and the links. At start the list is the last thing built before the
// first answer, after the session scan: its 3,000 objects and their serialization took ~25-30 ms of that
// tail. The heads are made as each plan is read (planReads.ts), while the logs are still being scanned.
import type { PlanMetadata } from '../types.js';
import type { PlanFileRecord } from './planFile.js';

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

/** JSON.stringify() of the list entries of `records` (in list order) with these links. */
export function planListJson(
  records: readonly PlanFileRecord[],
  link: (record: PlanFileRecord) => { project: string | null; sessionId: string | null },
): string {
  const parts = records.map((r) => {
    const { project, sessionId } = link(r);
    return `${listHead(r)}"project":${JSON.stringify(project)},"sessionId":${JSON.stringify(sessionId)}}`;
  });
  return `[${parts.join(',')}]`;
}
