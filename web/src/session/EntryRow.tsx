// One entry of a session as a person reads it: a prompt, Claude's answer (markdown, sanitized), a tool
// call folded to one line (open: its input and result), a plan-mode event or a compaction boundary.
import { useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import type { TranscriptEntry } from '../api/types';
import { renderMarkdown } from '../reader/markdown';
import { sanitizeHtml } from '../reader/sanitize';
import { sessionHref } from '../state/url';
import { exactTime } from '../ui/format';

export interface RowProps {
  sessionId: string;
  entry: TranscriptEntry;
  /** Its place among the loaded entries (one log line can hold several: an answer and its tool calls). */
  index: number;
  /** The first entry of its line carries the line's anchor. */
  firstOfLine: boolean;
  /** The result paired with a call, when it is loaded. */
  result?: TranscriptEntry | undefined;
  highlighted: boolean;
  /** Deep links are to the main log only (a subagent's cursor points into another file). */
  onLink?: ((cursor: number) => void) | undefined;
  /** Under a call that started a subagent: its thread. */
  nested?: ReactNode;
}

const KIND_LABEL: Record<TranscriptEntry['kind'], string> = {
  prompt: 'You',
  command: 'Command',
  answer: 'Claude',
  'tool-call': 'Tool',
  'tool-result': 'Result',
  'plan-mode': 'Plan mode',
  compaction: 'Compaction',
};

/** The call's input on one line: the command, the file or the first value, not the JSON around it. */
export function callSummary(text: string): string {
  try {
    const input = JSON.parse(text) as unknown;
    if (input && typeof input === 'object') {
      const o = input as Record<string, unknown>;
      const first = ['command', 'file_path', 'path', 'pattern', 'description', 'prompt', 'url', 'query'].map((k) => o[k]).find((v) => typeof v === 'string');
      if (typeof first === 'string') return first.replace(/\s+/g, ' ');
    }
  } catch {
    // A cut input is no longer JSON: its start still says what it was.
  }
  return text.replace(/\s+/g, ' ');
}

function shortTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Answer({ text }: { text: string }) {
  const html = useMemo(() => sanitizeHtml(renderMarkdown(text).html), [text]);
  // In-app and local links of the renderer do not leave the session view.
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest('a');
    if (a && (a.dataset.nav || a.dataset.broken)) e.preventDefault();
  };
  return <div className="markdown-body entry-markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

function Cut({ entry }: { entry: TranscriptEntry }) {
  return entry.truncated ? <p className="muted entry-cut">Cut at 2,000 characters; the whole is in the log.</p> : null;
}

function ToolCall({ entry, index, result, nested }: { entry: TranscriptEntry; index: number; result?: TranscriptEntry | undefined; nested?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const bodyId = `tool-${entry.cursor}-${index}`;
  return (
    <>
      <button type="button" className="tool-line" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span className="tool-caret" aria-hidden="true">{open ? '▾' : '▸'}</span>
        <strong className="tool-name">{entry.tool ?? 'tool'}</strong> <span className="tool-summary">{callSummary(entry.text)}</span>
        {result?.isError && <span className="chip tool-error">error</span>}
      </button>
      {open && (
        <div className="tool-body" id={bodyId}>
          <h3 className="tool-heading">Input</h3>
          <pre className="tool-input">{pretty(entry.text)}</pre>
          <Cut entry={entry} />
          <h3 className="tool-heading">Result</h3>
          {result ? (
            <>
              <pre className={`tool-result${result.isError ? ' is-error' : ''}`}>{result.text}</pre>
              <Cut entry={result} />
            </>
          ) : (
            <p className="muted">No result in the pages loaded so far.</p>
          )}
        </div>
      )}
      {nested}
    </>
  );
}

export function EntryRow({ sessionId, entry, index, firstOfLine, result, highlighted, onLink, nested }: RowProps) {
  const e = entry;
  const body =
    e.kind === 'answer' ? <Answer text={e.text} />
    : e.kind === 'tool-call' ? <ToolCall entry={e} index={index} result={result} nested={nested} />
    : e.kind === 'tool-result' ? <pre className={`tool-result${e.isError ? ' is-error' : ''}`}>{e.text}</pre>
    : e.kind === 'plan-mode' || e.kind === 'compaction' ? <p className="entry-event">{e.text}</p>
    : <p className={e.kind === 'command' ? 'entry-text is-command' : 'entry-text'}>{e.text}</p>;
  return (
    <li className={`entry entry-${e.kind}${highlighted ? ' highlighted' : ''}`} id={onLink && firstOfLine ? `entry-${e.cursor}` : undefined} data-cursor={e.cursor}>
      <div className="entry-head">
        <span className="entry-kind">{KIND_LABEL[e.kind]}</span>
        {e.at && <time dateTime={e.at} title={exactTime(e.at)} className="muted">{shortTime(e.at)}</time>}
        {onLink && firstOfLine && (
          <a
            className="entry-link"
            href={sessionHref(sessionId, e.cursor)}
            aria-label={`Link to this ${KIND_LABEL[e.kind].toLowerCase()} entry`}
            onClick={(ev) => {
              ev.preventDefault();
              onLink(e.cursor);
            }}
          >
            #
          </a>
        )}
      </div>
      {body}
      {e.kind !== 'tool-call' && <Cut entry={e} />}
    </li>
  );
}
