// A session's transcript as a person reads it, a page at a time: prompts, Claude's answers, each tool call
// on one line (its input and result cut short; the whole is in the log), plan-mode events and compaction
// boundaries. Paged by byte cursor (a line's offset), so a 200 MB log opens at once and a line can be linked.
import type { TranscriptEntry } from '../../contract/transcript.js';
import { pageStartBefore, readLinesFrom } from './lineReads.js';

type EntryKind = TranscriptEntry['kind'];

export interface TranscriptPage {
  entries: TranscriptEntry[];
  nextCursor: number | null;
  /** Where the page before this one starts (it reaches `cursor`); null at the start of the log. */
  prevCursor: number | null;
  totalBytes: number;
}

const MAX_TEXT = 2000;
/** Bytes read for one page at most (but one whole line, however long). */
const PAGE_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function transcriptPage(file: string, cursor: number, limit: number): TranscriptPage | null {
  const page = readLinesFrom(file, cursor, limit, PAGE_BYTES);
  if (page === null) return null;
  const entries: TranscriptEntry[] = [];
  for (const line of page.lines) if (isObject(line.value)) entriesOf(line.value, line.start, entries);
  return { entries, nextCursor: page.next, prevCursor: pageStartBefore(file, cursor, limit, PAGE_BYTES), totalBytes: page.size };
}

function cut(text: string): { text: string; truncated: boolean } {
  return text.length > MAX_TEXT ? { text: text.slice(0, MAX_TEXT), truncated: true } : { text, truncated: false };
}

function entry(cursor: number, at: string | null, kind: EntryKind, text: string, more: Partial<TranscriptEntry> = {}): TranscriptEntry {
  return { cursor, at, kind, ...cut(text), tool: null, toolUseId: null, isError: false, ...more };
}

/** The text of a tool result's content: a string, or its text parts. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).filter(Boolean).join('\n');
}

function entriesOf(line: Json, cursor: number, out: TranscriptEntry[]): void {
  const at = typeof line.timestamp === 'string' ? line.timestamp : null;
  const message = isObject(line.message) ? line.message : null;
  const content = message?.content;
  if (line.type === 'user') {
    if (typeof content === 'string') {
      // Lines Claude Code writes for a slash command are not prompts the person typed.
      const command = /^\s*<(command-name|local-command-stdout|command-message)>/.test(content);
      out.push(entry(cursor, at, command ? 'command' : 'prompt', content));
      return;
    }
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (!isObject(part)) continue;
      if (part.type === 'tool_result') {
        out.push(entry(cursor, at, 'tool-result', resultText(part.content), {
          toolUseId: typeof part.tool_use_id === 'string' ? part.tool_use_id : null, isError: part.is_error === true,
        }));
      } else if (part.type === 'text' && typeof part.text === 'string') {
        out.push(entry(cursor, at, 'prompt', part.text));
      }
    }
  } else if (line.type === 'assistant' && Array.isArray(content)) {
    for (const part of content) {
      if (!isObject(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') out.push(entry(cursor, at, 'answer', part.text));
      else if (part.type === 'tool_use') {
        const tool = typeof part.name === 'string' ? part.name : null;
        out.push(entry(cursor, at, 'tool-call', JSON.stringify(part.input ?? {}), { tool, toolUseId: typeof part.id === 'string' ? part.id : null }));
      }
    }
  } else if (line.type === 'system' && line.subtype === 'compact_boundary') {
    out.push(entry(cursor, at, 'compaction', 'Conversation compacted'));
  } else if (line.type === 'attachment' && isObject(line.attachment) && typeof line.attachment.type === 'string' && line.attachment.type.startsWith('plan_mode')) {
    out.push(entry(cursor, at, 'plan-mode', line.attachment.type === 'plan_mode_exit' ? 'Plan mode left' : 'Plan mode'));
  }
}
