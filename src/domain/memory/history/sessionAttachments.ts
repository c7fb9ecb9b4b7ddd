// The memory attachments of a session, read again from their lines where the memoryReads facts say they
// are: what each handed over (the files it names, their texts masked and cut). Bounded per answer: the lines
// read add up to at most LINE_BUDGET_BYTES (one is left unread, and says so, past it), and a text is decoded
// whole only when it is small enough to count and mask at once.
import type { SessionMemoryAttachment } from '../../../contract/sessionMemory.js';
import { maskSecrets } from '../care/secrets.js';
import { compareTimes } from '../../history/historyIndex.js';
import type { LogFacts } from '../../transcripts/extractors/index.js';
import { K } from '../../transcripts/extractors/keys.js';
import { pathOf } from '../../transcripts/extractors/memoryReads.js';
import { memoryPathParts } from '../../transcripts/extractors/memoryWrites.js';
import { readLineAt } from '../../transcripts/lineReads.js';
import type { LineView, NodeView } from '../../transcripts/lineView.js';

/** Characters of an attachment's text in the answer; the rest is in the log. */
export const MAX_ATTACHMENT_CHARS = 4000;
export const MAX_ATTACHMENTS = 200;
/** Memories shown of one relevant_memories attachment (Claude Code hands a few). */
export const MAX_ITEMS = 20;
/** Bytes of attachment lines one answer reads. */
export const LINE_BUDGET_BYTES = 16 * 1024 * 1024;
/** A text up to this many bytes is decoded whole (counted exactly, masked at once); a longer one only in part. */
const WHOLE_TEXT_BYTES = 1024 * 1024;
/** Characters decoded past the cut before masking: as far as the secret detector looks in a line. */
const EDGE_CHARS = 4096;

export function sessionAttachments(
  sessionId: string, logs: readonly { log: string; facts: LogFacts }[], listed: ReadonlyMap<string, string>,
): { attachments: SessionMemoryAttachment[]; omittedAttachments: number } {
  const found = logs.flatMap(({ log, facts }) => facts.memoryReads.reads.filter((r) => r.sessionId === sessionId).map((read) => ({ log, read })));
  found.sort((a, b) => compareTimes(a.read.at, b.read.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.read.line.start - b.read.line.start);
  let budget = LINE_BUDGET_BYTES;
  const attachments = found.slice(0, MAX_ATTACHMENTS).map(({ log, read }): SessionMemoryAttachment => {
    const bytes = read.line.end - read.line.start;
    const line = bytes <= budget ? readLineAt(log, read.line.start, read.line.end) : null;
    if (bytes <= budget) budget -= bytes;
    return {
      kind: read.kind, at: read.at, agentId: read.agentId, line: read.number, unread: line === null,
      items: line === null ? [] : attachmentItems(line, read.kind, listed),
    };
  });
  return { attachments, omittedAttachments: found.length - attachments.length };
}

/** What an attachment line handed over: one item for a nested_memory, one per memory for relevant_memories. */
function attachmentItems(line: LineView, kind: SessionMemoryAttachment['kind'], listed: ReadonlyMap<string, string>): SessionMemoryAttachment['items'] {
  const attachment = line.node(K.attachment);
  if (attachment?.kind !== 'object') return [];
  const nodes = kind === 'nested_memory' ? [attachment] : (attachment.get(K.memories)?.items() ?? []).filter((m) => m.kind === 'object').slice(0, MAX_ITEMS);
  return nodes.map((node) => {
    const named = pathOf(node);
    const parts = named === null ? null : memoryPathParts(named);
    const memoryId = (named === null ? undefined : listed.get(named)) ?? (parts === null ? null : `${parts.key}/${parts.file}`);
    return { path: named, memoryId, ...shownText(node.get(K.content)) };
  });
}

function shownText(content: NodeView | null): { chars: number | null; text: string; cut: boolean } {
  if (content?.kind !== 'string') return { chars: 0, text: '', cut: false };
  if (content.span.end - content.span.start <= WHOLE_TEXT_BYTES) {
    const text = content.str() ?? '';
    // Masked whole, then cut: a token cut in two would no longer be recognised.
    return { chars: text.length, text: maskSecrets(text).text.slice(0, MAX_ATTACHMENT_CHARS), cut: text.length > MAX_ATTACHMENT_CHARS };
  }
  const start = content.str(MAX_ATTACHMENT_CHARS + EDGE_CHARS) ?? '';
  return { chars: null, text: maskSecrets(start).text.slice(0, MAX_ATTACHMENT_CHARS), cut: true };
}
