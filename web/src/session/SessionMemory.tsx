// The session view's Memory tab (GET /api/sessions/{id}/memory): what the session loaded of its memory
// folder when it started (MEMORY.md's version then, with where Claude Code cut it, and the topics then),
// the memory attachments it was handed (folded; open to read), and the memory files it wrote. Files link
// to the memory reader; a version's text comes from GET /api/memory/versions, masked as the memory
// reader masks texts.
import { useState } from 'react';
import type { FileAtStart, LoadCut, SessionMemoryAttachment, SessionMemoryBody, SessionMemoryWrite } from '../api/types';
import { api, describeError } from '../api/client';
import { entryHref, type EntryTab } from '../state/url';
import { followInApp } from '../state/inAppLink';
import { useLoaded } from '../state/useLoaded';
import { exactTime, relativeTime } from '../ui/format';
import { maskSecrets } from '../../../src/domain/memory/care/secrets';

function When({ at, prefix = '' }: { at: string | null; prefix?: string }) {
  return at === null ? null : <span className="muted" title={exactTime(at)}>{prefix}{relativeTime(at)}</span>;
}

function FileLink({ sourceId, id, label, tab = null }: { sourceId: string | null; id: string; label: string; tab?: EntryTab }) {
  // An id is <sourceId>/<filename>, and no source id holds a slash: the memory reader opens it in its source.
  const source = sourceId ?? id.slice(0, Math.max(0, id.indexOf('/')));
  return <a href={entryHref(source, id, tab)} onClick={followInApp} className="memory-file-link"><code>{label}</code></a>;
}

export function SessionMemory({ sessionId }: { sessionId: string }) {
  const answer = useLoaded<SessionMemoryBody>((signal) => api.sessionMemory(sessionId, signal), [sessionId]);
  if (answer.status === 'loading') return <div className="state-panel loading" aria-busy="true">Reading what the session saw of memory…</div>;
  if (answer.status === 'error') return <div className="state-panel error"><p>{describeError(answer.error)}</p></div>;
  const m = answer.value;
  const sourceId = m.folder?.sourceId ?? null;
  return (
    <div className="session-memory" data-testid="session-memory">
      {m.incomplete && <p className="notice">Some lines of this session's logs were too long to read: attachments or writes they hold are missing.</p>}
      <section aria-labelledby="sm-start">
        <h2 id="sm-start">Loaded at start</h2>
        {m.folder === null ? (
          <p className="muted">No memory folder is listed for this session's project.</p>
        ) : (
          <>
            <p className="session-memory-folder">
              From <code>{m.folder.dir}</code>{m.startedAt && <> as it was when the session started, <When at={m.startedAt} /></>}.
              {' '}<span className="muted">{CHOSEN_BY[m.folder.chosenBy]}</span>
            </p>
            {m.atStart.index === null ? <p className="muted">No MEMORY.md then.</p> : <IndexAtStart index={m.atStart.index} sourceId={sourceId} />}
            <h3>Topics then</h3>
            {m.atStart.topics.length === 0 ? <p className="muted">None.</p> : (
              <ul className="session-memory-topics">
                {m.atStart.topics.map((t) => <TopicAtStart key={t.id} topic={t} sourceId={sourceId} />)}
              </ul>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="sm-handed">
        <h2 id="sm-handed">Handed during the session</h2>
        {m.attachments.length === 0 ? <p className="muted">No memory attachments.</p> : (
          <ol className="session-memory-attachments">
            {m.attachments.map((a) => <Attachment key={`${a.agentId ?? ''}:${a.line}:${a.at ?? ''}`} attachment={a} />)}
          </ol>
        )}
        {m.omittedAttachments > 0 && <p className="muted">{m.omittedAttachments} more attachments are not shown.</p>}
      </section>
      <section aria-labelledby="sm-wrote">
        <h2 id="sm-wrote">Written</h2>
        {m.wrote.length === 0 ? <p className="muted">It wrote no memory file.</p> : (
          <ul className="session-memory-writes">
            {m.wrote.map((w, i) => <Written key={`${w.id}:${i}`} write={w} />)}
          </ul>
        )}
      </section>
    </div>
  );
}

const REASON: Record<LoadCut['reason'], string> = {
  none: '', lines: 'past the 200-line limit', chars: 'past the 25,000-character limit', 'lines+chars': 'past the 200-line and the 25,000-character limits',
};

function IndexAtStart({ index, sourceId }: { index: NonNullable<SessionMemoryBody['atStart']['index']>; sourceId: string | null }) {
  const [open, setOpen] = useState(false);
  const load = index.load;
  return (
    <div className="session-memory-index" data-testid="index-at-start">
      <p>
        <FileLink sourceId={sourceId} id={index.id} label={index.file} />{' '}
        {index.versionId === null ? <span className="muted">(no version known from before the session)</span> : <When at={index.at} prefix="version from " />}
      </p>
      {load !== null && (
        <p className={load.truncated ? 'load-cut over' : 'load-cut'} data-testid="index-cut">
          {load.truncated
            ? `Claude Code loaded ${load.keptLines} of ${load.totalLines} lines (${load.keptChars.toLocaleString()} of ${load.totalChars.toLocaleString()} characters); the rest, from line ${(load.firstUnreadLine ?? 0) + 1}, was cut ${REASON[load.reason]}.`
            : `Claude Code loaded all of it: ${load.totalLines} lines, ${load.totalChars.toLocaleString()} characters.`}
        </p>
      )}
      {index.versionId !== null && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>{open ? 'Hide that version' : 'Show that version'}</button>
      )}
      {open && index.versionId !== null && <VersionText id={index.id} versionId={index.versionId} load={load} />}
    </div>
  );
}

/** A version's text, masked, with what Claude Code did not load set apart. */
function VersionText({ id, versionId, load }: { id: string; versionId: string; load: LoadCut | null }) {
  const text = useLoaded<string>((signal) => api.memoryVersion(id, versionId, signal), [id, versionId]);
  if (text.status === 'loading') return <p aria-busy="true">Loading…</p>;
  if (text.status === 'error') return <p>{describeError(text.error)}</p>;
  // Masking keeps every offset, so the cut falls where it does in the file.
  const shown = maskSecrets(text.value).text;
  const end = load?.truncated ? load.keptEnd : shown.length;
  // Focusable: the text scrolls, and a keyboard must reach it.
  return (
    <pre className="session-memory-text" data-testid="index-version-text" tabIndex={0} aria-label="MEMORY.md as it was at start">
      {shown.slice(0, end)}
      {end < shown.length && (
        <>
          <span className="cut-marker" role="separator">Claude Code stopped loading here</span>
          <span className="not-loaded">{shown.slice(end)}</span>
        </>
      )}
    </pre>
  );
}

function TopicAtStart({ topic, sourceId }: { topic: FileAtStart; sourceId: string | null }) {
  return (
    <li>
      <FileLink sourceId={sourceId} id={topic.id} label={topic.file} />{' '}
      {topic.versionId === null ? <span className="muted">(no version known from before the session)</span> : <When at={topic.at} prefix="version from " />}
    </li>
  );
}

/** How the folder is known (the settings may have moved it since the session ran). */
const CHOSEN_BY = {
  writes: 'The session wrote memory there.',
  attachments: 'The memories it was handed came from there.',
  settings: 'The folder the settings name now: the session shows no other, but the settings may have changed since it ran.',
} as const;

const KIND = { nested_memory: 'Nested memory', relevant_memories: 'Relevant memories' } as const;

function Attachment({ attachment: a }: { attachment: SessionMemoryAttachment }) {
  const names = a.items.map((item) => item.path ?? '(no path)');
  return (
    <li className={`session-memory-attachment kind-${a.kind}`}>
      <details>
        <summary>
          <strong>{KIND[a.kind]}</strong>{a.agentId && <> · subagent {a.agentId}</>} · line {a.line} <When at={a.at} prefix="· " />
          <span className="attachment-paths"> · {names.map((n) => n.split(/[\\/]/).pop()).join(', ')}</span>
        </summary>
        {a.unread && <p className="muted">Too long to read here: it is line {a.line} of the session's log.</p>}
        {a.items.map((item, i) => (
          <div key={i} className="attachment-item">
            <p>
              <code>{item.path ?? '(no path)'}</code> · {item.chars === null ? 'over a million' : item.chars.toLocaleString()} characters
              {item.memoryId !== null && <> · <FileLink sourceId={null} id={item.memoryId} label="open in memory" /></>}
            </p>
            <pre className="session-memory-text" tabIndex={0} aria-label={`Text of ${item.path ?? 'the attachment'}`}>{item.text}{item.cut && <span className="cut-marker">… (cut at 4,000 characters)</span>}</pre>
          </div>
        ))}
      </details>
    </li>
  );
}

function Written({ write: w }: { write: SessionMemoryWrite }) {
  return (
    <li>
      {w.tool} <FileLink sourceId={null} id={w.id} label={w.file} tab="history" /> <When at={w.at} prefix="· " />
      {w.agentId && <span className="muted"> · by subagent {w.agentId}</span>}
      {w.versionId === null && <span className="muted"> · its version could not be rebuilt</span>}
    </li>
  );
}
