// The History tab: the plan's timeline (versions and plan-mode events, oldest first) and two of its
// versions compared, inline or side by side, rendered or as markdown. Each version's markdown can be
// copied; nothing here writes a plan file.
import { useMemo } from 'react';
import type { PlanHistoryBody, PlanVersion } from '../api/types';
import type { RenderOptions } from '../reader/DocumentView';
import type { DiffLayout } from '../state/url';
import { copyWithToast } from '../ui/actions';
import { exactTime, formatBytes, formatCount, plural, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { diffTexts } from './lineDiff';
import { RawDiff } from './RawDiff';
import { RenderedDiff } from './RenderedDiff';
import { SessionName } from './SessionName';
import { defaultPair, EVENT_LABEL, SOURCE_DETAIL, timeline, versionName } from './timeline';
import { useVersionText, type VersionTexts } from './useHistory';

export interface Compare {
  from: string | null;
  to: string | null;
  layout: DiffLayout;
  raw: boolean;
}

interface Props {
  history: PlanHistoryBody;
  texts: VersionTexts;
  compare: Compare;
  onCompare(update: Partial<Compare>): void;
  options: RenderOptions;
  onNavigate(nav: string): void;
  onLocalLink(title: string): void;
}

function When({ at }: { at: string | null }) {
  if (at === null) return <span className="muted">time unknown</span>;
  return (
    <time dateTime={at} title={exactTime(at)}>
      {relativeTime(at)}
    </time>
  );
}

function VersionRow({ version, number, selected, texts, onPick }: {
  version: PlanVersion;
  number: number;
  selected: 'from' | 'to' | 'both' | null;
  texts: VersionTexts;
  onPick(role: 'from' | 'to'): void;
}) {
  const toast = useToast();
  const copy = () => {
    texts.get(version.id).then(
      (text) => void copyWithToast(text, `the markdown of v${number}`, toast),
      () => toast('Could not load that version', 'error'),
    );
  };
  return (
    <li className={`timeline-item timeline-version source-${version.source}${selected ? ` picked-${selected}` : ''}`} data-version-id={version.id}>
      {version.gapBefore && (
        <p className="timeline-gap" role="note">
          Some changes before this version could not be rebuilt from the transcripts: the story resumes here.
        </p>
      )}
      <div className="timeline-line">
        <strong className="version-name" title={SOURCE_DETAIL[version.source]}>
          {versionName(number, version)}
        </strong>{' '}
        <When at={version.at} />
        {version.sessionId && (
          <span className="muted">
            {' '}
            · <SessionName sessionId={version.sessionId} />
          </span>
        )}
        {version.agentId && <span className="chip agent-chip">subagent {version.agentId.slice(0, 8)}</span>}
        <span className="muted">
          {' '}
          · {plural(version.lineCount, 'line')} · {formatBytes(version.size)}
        </span>
      </div>
      <div className="timeline-actions">
        <button type="button" aria-pressed={selected === 'from' || selected === 'both'} onClick={() => onPick('from')} aria-label={`Compare from v${number}`}>
          From
        </button>
        <button type="button" aria-pressed={selected === 'to' || selected === 'both'} onClick={() => onPick('to')} aria-label={`Compare to v${number}`}>
          To
        </button>
        <button type="button" onClick={copy} aria-label={`Copy the markdown of v${number}`}>
          Copy
        </button>
      </div>
    </li>
  );
}

export function HistoryPanel({ history, texts, compare, onCompare, options, onNavigate, onLocalLink }: Props) {
  const items = useMemo(() => timeline(history.versions, history.events), [history]);
  const pair = defaultPair(history.versions, compare.from, compare.to);
  const numberOf = (id: string) => history.versions.findIndex((v) => v.id === id) + 1;

  if (history.versions.length === 0) {
    return (
      <div className="state-panel empty">
        <h2>No versions yet</h2>
        <p>No transcript records a write of this plan, and the viewer has not read it yet.</p>
      </div>
    );
  }

  const select = (role: 'from' | 'to', id: string) => onCompare(role === 'from' ? { from: id, to: pair?.to ?? id } : { to: id, from: pair?.from ?? id });

  return (
    <div className="history-panel">
      <section className="history-timeline" aria-label="Versions and plan-mode events">
        <h2 className="section-title">
          {formatCount(history.versions.length)} {history.versions.length === 1 ? 'version' : 'versions'}
        </h2>
        {history.unreadLines > 0 && <UnreadNote lines={history.unreadLines} of="its sessions' transcripts" />}
        <ol className="timeline">
          {items.map((item, i) =>
            item.type === 'version' ? (
              <VersionRow
                key={item.version.id}
                version={item.version}
                number={item.number}
                texts={texts}
                selected={
                  pair === null ? null
                  : pair.from === item.version.id && pair.to === item.version.id ? 'both'
                  : pair.from === item.version.id ? 'from'
                  : pair.to === item.version.id ? 'to'
                  : null
                }
                onPick={(role) => select(role, item.version.id)}
              />
            ) : (
              <li key={`e${i}`} className={`timeline-item timeline-event event-${item.event.kind}`}>
                <span className="event-name">{EVENT_LABEL[item.event.kind]}</span> <When at={item.event.at} />
                {item.event.sessionId && (
                  <span className="muted">
                    {' '}
                    · <SessionName sessionId={item.event.sessionId} />
                  </span>
                )}
                {item.event.feedback !== null && <blockquote className="event-feedback">{item.event.feedback}</blockquote>}
              </li>
            ),
          )}
        </ol>
      </section>
      {pair && (
        <section className="history-compare" aria-label="Compare two versions">
          <div className="compare-toolbar" role="toolbar" aria-label="Comparison">
            <VersionSelect label="From" role="from" versions={history.versions} value={pair.from} onPick={select} />
            <VersionSelect label="to" role="to" versions={history.versions} value={pair.to} onPick={select} />
            <span className="segmented" role="group" aria-label="Layout">
              <button type="button" aria-pressed={compare.layout === 'inline'} onClick={() => onCompare({ layout: 'inline' })}>
                Inline
              </button>
              <button type="button" aria-pressed={compare.layout === 'split'} onClick={() => onCompare({ layout: 'split' })}>
                Side by side
              </button>
            </span>
            <span className="segmented" role="group" aria-label="Show">
              <button type="button" aria-pressed={!compare.raw} onClick={() => onCompare({ raw: false })}>
                Rendered
              </button>
              <button type="button" aria-pressed={compare.raw} onClick={() => onCompare({ raw: true })}>
                Markdown
              </button>
            </span>
          </div>
          <PairDiff
            texts={texts}
            from={pair.from}
            to={pair.to}
            label={`v${numberOf(pair.from)} → v${numberOf(pair.to)}`}
            compare={compare}
            options={options}
            onNavigate={onNavigate}
            onLocalLink={onLocalLink}
          />
        </section>
      )}
    </div>
  );
}

/** Lines of the transcripts behind an answer that were too long to read: what they hold is missing from it. */
export function UnreadNote({ lines, of }: { lines: number; of: string }) {
  return (
    <p className="chip incomplete-note" role="note">
      {formatCount(lines)} {lines === 1 ? 'line' : 'lines'} of {of} {lines === 1 ? 'is' : 'are'} over 32 MiB, too long to read: what{' '}
      {lines === 1 ? 'it holds' : 'they hold'} is not shown
    </p>
  );
}

function VersionSelect({ label, role, versions, value, onPick }: {
  label: string;
  role: 'from' | 'to';
  versions: PlanVersion[];
  value: string;
  onPick(role: 'from' | 'to', id: string): void;
}) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => onPick(role, e.target.value)} aria-label={`Compare ${role} version`}>
        {versions.map((v, i) => (
          <option key={v.id} value={v.id}>
            {versionName(i + 1, v)}
          </option>
        ))}
      </select>
    </label>
  );
}

function PairDiff({ texts, from, to, label, compare, options, onNavigate, onLocalLink }: {
  texts: VersionTexts;
  from: string;
  to: string;
  label: string;
  compare: Compare;
  options: RenderOptions;
  onNavigate(nav: string): void;
  onLocalLink(title: string): void;
}) {
  const a = useVersionText(texts, from);
  const b = useVersionText(texts, to);
  const raw = useMemo(() => (compare.raw && a.text !== null && b.text !== null ? diffTexts(a.text, b.text) : null), [compare.raw, a.text, b.text]);
  if (a.error || b.error) return <p className="state-panel error">Could not load a version of this plan.</p>;
  if (a.text === null || b.text === null) {
    return (
      <p className="state-panel loading" aria-busy="true">
        Loading versions…
      </p>
    );
  }
  return (
    <div className="pair-diff" data-testid="history-diff" aria-label={`Changes ${label}`}>
      {raw ? (
        <RawDiff key={`${from}\u0000${to}`} diff={raw} layout={compare.layout} />
      ) : (
        <RenderedDiff key={`${from}\u0000${to}`} oldText={a.text} newText={b.text} layout={compare.layout} options={options} onNavigate={onNavigate} onLocalLink={onLocalLink} />
      )}
    </div>
  );
}
