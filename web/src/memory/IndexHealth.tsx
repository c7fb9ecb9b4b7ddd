// MEMORY.md health: line and character meters against Claude Code's limits (ok / near from 80% / over)
// as it counts them (frontmatter and HTML comments left out, characters not bytes), where exactly reading
// stops, topics whose only link lies past that point, orphans and dangling links, each one click away.
// The meters, the verdict and the cut come from one rule, so they never contradict each other.
import type { MemoryEntry, MemorySource } from '../api/types';
import { formatCount, plural } from '../ui/format';
import { CHAR_LIMIT, LINE_LIMIT, levelOf, type CutPoint, type Level } from './cutPoint';
import { LEVEL_TEXT } from './healthSummary';
import type { IndexReach } from './links';

interface Props {
  source: MemorySource;
  cut: CutPoint;
  /** The file as it is on disk: lines and UTF-8 bytes (the spec's index.lines and index.bytes). */
  measured: { lines: number; bytes: number };
  reach: IndexReach;
  /** The orphans (orphans.ts, as the health check finds them); `named`: MEMORY.md names it in backticks. */
  orphans: { entry: MemoryEntry; named: boolean }[];
  dangling: string[];
  onOpenEntry(entry: MemoryEntry): void;
  onShowLink(target: string): void;
  onShowCut(): void;
}

function Meter({ label, value, limit, unit }: { label: string; value: number; limit: number; unit: string }) {
  const level: Level = levelOf(value, limit);
  const pct = Math.round((value / limit) * 100);
  return (
    <div className={`meter level-${level}`}>
      <div className="meter-head">
        <span className="meter-label">{label}</span>
        <span className="meter-value">
          {formatCount(value)} / {formatCount(limit)} {unit} <span className={`level-tag level-${level}`}>{LEVEL_TEXT[level]}</span>
        </span>
      </div>
      <div
        className="meter-track"
        role="meter"
        aria-label={`${label}: ${formatCount(value)} of ${formatCount(limit)} ${unit}, ${LEVEL_TEXT[level]}`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={value}
      >
        <div className="meter-fill" style={{ width: `${Math.min(pct, 100)}%` }} />
        <div className="meter-warn-mark" aria-hidden="true" />
      </div>
    </div>
  );
}

export function IndexHealth({ source, cut, measured, reach, orphans, dangling, onOpenEntry, onShowLink, onShowCut }: Props) {
  const stats = source.index;
  const diskLines = stats?.lines ?? measured.lines;
  const diskBytes = stats?.bytes ?? measured.bytes;
  const unread = cut.totalLines - cut.keptLines;
  // What is held against the character limit: the first 200 counted lines when lines were cut first.
  const checkedChars = cut.reason === 'lines' ? cut.keptChars : cut.totalChars;
  const leftOut = cut.skipped.length > 0;
  return (
    <section className="index-health" aria-label="MEMORY.md health">
      <div className="meters">
        <Meter label="Lines" value={cut.totalLines} limit={LINE_LIMIT} unit="lines" />
        <Meter label="Characters" value={checkedChars} limit={CHAR_LIMIT} unit="characters" />
      </div>
      <p className={`cut-summary${cut.truncated ? ' truncated' : ''}`} data-testid="cut-summary">
        {cut.truncated ? (
          <>
            Claude Code loads the first {formatCount(cut.keptLines)} lines ({formatCount(cut.keptChars)} characters) and
            never sees the remaining {formatCount(unread)} {unread === 1 ? 'line' : 'lines'}
            {cut.reason === 'chars' || cut.reason === 'lines+chars' ? ', cut at the last line break before 25,000 characters' : ''}
            .{' '}
            <button type="button" className="link-button" onClick={onShowCut}>
              Show the cut
            </button>
          </>
        ) : (
          <>Claude Code loads all of it ({plural(cut.totalLines, 'line')}, {plural(cut.totalChars, 'character')}).</>
        )}
      </p>
      <p className="muted disk-stats" data-testid="disk-stats">
        On disk: {plural(diskLines, 'line')}, {plural(diskBytes, 'byte')}.
        {leftOut && ' Frontmatter and HTML comments are left out before Claude Code counts.'}
        {diskBytes > CHAR_LIMIT && !cut.truncated && ' More bytes than the limit, but Claude Code counts characters: nothing is cut.'}
      </p>
      {!source.active && (
        <p className="notice">This folder is not read by Claude Code (an autoMemoryDirectory setting points elsewhere).</p>
      )}
      <div className="problems">
        <ProblemList
          title="Unreachable: linked only after the cut"
          empty="Every linked topic is linked before the cut."
          className="unreachable"
          items={reach.unreachable.map((e) => ({ key: e.id, label: e.name, title: e.filename, onClick: () => onOpenEntry(e) }))}
        />
        <ProblemList
          title="Orphans: not linked from MEMORY.md"
          empty="Every topic is linked from MEMORY.md (or pinned)."
          className="orphans"
          items={orphans.map(({ entry: e, named }) => ({
            key: e.id,
            label: named ? `${e.name} (named but not linked)` : e.name,
            title: named ? `MEMORY.md names ${e.filename} in text but does not link it` : e.filename,
            onClick: () => onOpenEntry(e),
          }))}
        />
        <ProblemList
          title="Dangling links: point to files that do not exist"
          empty="No dangling links."
          className="dangling"
          items={dangling.map((d) => ({ key: d, label: d, title: `Show the link to ${d} in MEMORY.md`, onClick: () => onShowLink(d) }))}
        />
      </div>
    </section>
  );
}

function ProblemList({ title, empty, items, className }: {
  title: string;
  empty: string;
  className: string;
  items: { key: string; label: string; title: string; onClick: (() => void) | undefined }[];
}) {
  return (
    <div className={`problem ${className}${items.length ? ' has-items' : ''}`}>
      <h3>
        {title} <span className="count">{items.length}</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item.key}>
              {item.onClick ? (
                <button type="button" className="link-button" onClick={item.onClick} title={item.title}>
                  {item.label}
                </button>
              ) : (
                <span title={item.title}>{item.label}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
