// The documents each part of the find index holds now, as the stores list them: a stamp per document (what
// it is built from: an unchanged stamp, no read) and how to build it. Finder compares them with what it holds
// (finder.ts); the archive's plans, built from their stories as they are put, stay there.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { projectName, statOrNull } from '../files.js';
import type { HistoryIndex } from '../history/historyIndex.js';
import { trustedNames } from '../memory/changeNotice.js';
import type { MemoryStore } from '../memory/memoryStore.js';
import type { PlanStore } from '../plans/planStore.js';
import type { TimeSlicer } from '../timeSlicer.js';
import type { SessionFacts } from '../transcripts/extractors/sessionCards.js';
import type { PlanMetadata } from '../types.js';
import { BODY_CHARS, docKey, type FindDoc } from './findIndex.js';

/** By document key: its stamp, and how to build it (null: it is gone). */
export type CurrentDocs = Map<string, { stamp: string; doc: () => Promise<FindDoc | null> }>;

/** A session's facts and the logs they come from (its own and its subagents'). */
export interface SessionSource {
  facts: SessionFacts;
  logs: string[];
}

/** Bytes of a plan or memory file read for indexing (BODY_CHARS of text at most are indexed). */
const READ_BYTES = BODY_CHARS * 4;

/** The plans on disk (those `named` only, when a notice named them), and how many there are. */
export async function planDocs(plans: PlanStore, named: ReadonlySet<string> | null, slicer: TimeSlicer): Promise<{ current: CurrentDocs; found: number }> {
  const current: CurrentDocs = new Map();
  let listed: PlanMetadata[];
  if (named === null) {
    // The listing is one long step on a large home: a slice of its own, as the archive's (Finder.syncArchive).
    await slicer.pause();
    listed = plans.list();
    await slicer.maybeYield();
  } else {
    listed = [];
    for (const name of named) {
      const plan = plans.find(name);
      if (plan !== undefined) listed.push(plan);
    }
  }
  for (const plan of listed) {
    current.set(docKey('plan', plan.filename), {
      stamp: `${plan.modified}\0${plan.size}\0${plan.project}\0${plan.filepath}`,
      doc: async () => {
        const opened = await plans.open(plan.filename);
        if (opened === null) return null;
        const body = await readHead(opened.handle, READ_BYTES);
        return { kind: 'plan', id: plan.filename, title: plan.title, name: plan.filename, description: '', body, project: plan.project, modified: plan.modified, type: null };
      },
    });
    await slicer.maybeYield();
  }
  return { current, found: listed.length };
}

/**
 * The memory entries listed now. The files the notices named (`pending`; every file when null) have their
 * stat looked at again; the others keep the stamp they had (`stampOf`) while the listing shows them unchanged.
 */
export async function memoryDocs(memory: MemoryStore, pending: ReadonlySet<string> | null, stampOf: (key: string) => string | undefined, slicer: TimeSlicer): Promise<CurrentDocs> {
  const listing = await memory.list();
  const named = trustedNames(pending, listing.entries);
  const projects = new Map(listing.sources.map((s) => [s.id, s.project]));
  const current: CurrentDocs = new Map();
  for (const entry of listing.entries) {
    const key = docKey('memory', entry.id);
    // The listing's modified may come from frontmatter: the file's own stat tells an edit, looked at
    // again for the files the notices named (all of them after a notice naming none).
    const listed = `${entry.modified}\0${entry.size}\0${entry.name}\0`;
    const known = stampOf(key);
    const stamp = named !== null && !named.has(entry.filepath) && known?.startsWith(listed) ? known : listed + fileStamp(entry.filepath);
    current.set(key, {
      stamp,
      doc: async () => {
        const opened = await memory.open(entry.id);
        if (opened === null) return null;
        const body = await readHead(opened.handle, READ_BYTES);
        return {
          kind: 'memory', id: entry.id, title: entry.name, name: entry.filename, description: entry.description ?? '', body,
          project: projects.get(entry.sourceId) ?? null, modified: entry.modified, type: entry.type,
        };
      },
    });
    await slicer.maybeYield();
  }
  return current;
}

/** Every session the logs name, with the facts its snippets are cut from. */
export async function sessionDocs(index: HistoryIndex, slicer: TimeSlicer): Promise<{ current: CurrentDocs; sources: Map<string, SessionSource> }> {
  const current: CurrentDocs = new Map();
  // As the archive's list (Finder.syncArchive): a step of its own, then the sessions a slice at a time.
  await slicer.pause();
  const all = index.allSessions();
  const sources = new Map<string, SessionSource>();
  for (const [id, source] of all) {
    await slicer.maybeYield();
    const f = source.facts;
    sources.set(id, source);
    const title = sessionTitle(f);
    const modified = f.lastAt ?? f.firstAt ?? new Date(0).toISOString();
    const cwd = index.cwdOf(id);
    const project = cwd === null ? null : projectName(cwd);
    current.set(docKey('session', id), {
      // A digest: the prompts can be long, and the stamps are saved with the index.
      stamp: createHash('sha256').update(JSON.stringify([title, f.firstPrompt, f.lastPrompt, modified, project])).digest('base64'),
      doc: () => Promise.resolve({
        kind: 'session', id, title: title ?? clip(f.firstPrompt) ?? id, name: '', description: '',
        body: [f.firstPrompt, f.lastPrompt].filter((t) => t !== null).join('\n'), project, modified, type: null,
      }),
    });
  }
  return { current, sources };
}

export function sessionTitle(f: SessionFacts): string | null {
  return f.customTitle ?? f.aiTitle ?? f.summary;
}

function clip(text: string | null): string | null {
  if (text === null) return null;
  const line = text.split('\n', 1)[0]!;
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

/** The first `max` bytes of an open file as text; closes it. */
async function readHead(handle: FileHandle, max: number): Promise<string> {
  try {
    const buffer = Buffer.alloc(Math.min(max, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return '';
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function fileStamp(filepath: string): string {
  const stats = statOrNull(filepath);
  return stats === null ? '-' : `${stats.mtimeMs}\0${stats.ino}`;
}
