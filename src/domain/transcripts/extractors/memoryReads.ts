// What memory a session was handed while it ran, beyond what it loaded at its start: the `nested_memory`
// attachments (a CLAUDE.md or rule file loaded as the session reached its folder) and the
// `relevant_memories` attachments (memory files shown to the model). Only where each line is and the paths
// it names are kept; the texts are read from the line again when a session's memory is asked for.
import { isSessionId } from '../../sessions/values.js';
import { isCount, isSpan, isText, readRows, type Extractor } from '../extractor.js';
import type { LineView, NodeView, Span } from '../lineView.js';
import { K } from './keys.js';
import type { LineHead } from './lineHead.js';

export type MemoryReadKind = 'nested_memory' | 'relevant_memories';

export interface MemoryRead {
  kind: MemoryReadKind;
  at: string | null;
  sessionId: string | null;
  agentId: string | null;
  line: Span;
  /** Its 1-based line number in the log. */
  number: number;
  /** The paths it names, in its order (a path too long to be one is left out). */
  paths: string[];
}

export interface MemoryReadFacts {
  reads: MemoryRead[];
}

const MAX_PATH_CHARS = 1024;
/** Paths kept of one attachment: a pathological line cannot grow the facts without bound. */
export const MAX_PATHS = 64;

export const memoryReads: Extractor<MemoryReadFacts> = {
  empty: () => ({ reads: [] }),
  line(facts, line, head) {
    if (head.type !== 'attachment') return;
    const read = attachmentRead(line, head);
    if (read !== null) facts.reads.push(read);
  },
  save: ({ reads }) => reads.map((r) => [r.kind, r.at, r.sessionId, r.agentId, r.line.start, r.line.end, r.number, r.paths]),
  restore(saved) {
    const reads = readRows(saved, readRead);
    return reads === null ? null : { reads };
  },
};

function attachmentRead(line: LineView, head: LineHead): MemoryRead | null {
  const node = line.node(K.attachment);
  const kind = shortText(node?.get(K.type) ?? null);
  if (node === null || (kind !== 'nested_memory' && kind !== 'relevant_memories')) return null;
  const paths: string[] = [];
  if (kind === 'nested_memory') {
    const named = pathOf(node);
    if (named !== null) paths.push(named);
  } else {
    for (const item of node.get(K.memories)?.items() ?? []) {
      if (paths.length === MAX_PATHS) break;
      const named = pathOf(item);
      if (named !== null) paths.push(named);
    }
  }
  return { kind, at: head.at, sessionId: head.sessionId, agentId: head.agentId, line: head.line, number: head.number, paths };
}

/** The file an attachment or one of its memories names: `path`, else `filePath`, else `file`. */
export function pathOf(node: NodeView): string | null {
  return shortText(node.get(K.path)) ?? shortText(node.get(K.filePath)) ?? shortText(node.get(K.file));
}

function shortText(node: NodeView | null): string | null {
  const text = node?.str(MAX_PATH_CHARS + 1) ?? null;
  return text === null || text === '' || text.length > MAX_PATH_CHARS ? null : text;
}

function readRead([kind, at, sessionId, agentId, start, end, number, paths]: unknown[]): MemoryRead | null {
  if (kind !== 'nested_memory' && kind !== 'relevant_memories') return null;
  if (!isText(at) || !isText(agentId) || !isSpan(start, end) || !isCount(number)) return null;
  if (sessionId !== null && (typeof sessionId !== 'string' || !isSessionId(sessionId))) return null;
  if (!Array.isArray(paths) || paths.length > MAX_PATHS || !paths.every((p) => typeof p === 'string' && p !== '' && p.length <= MAX_PATH_CHARS)) return null;
  return { kind, at, sessionId, agentId, line: { start: start as number, end: end as number }, number, paths: paths as string[] };
}
