// Every memory source with its problem counts, worst first (a secret outweighs any number of stale
// topics; see kinds.ts), each problem one click away. A folder Claude Code no longer reads is never
// shown as healthy. Below, the recent fixes (each undoable while its files are as it left them) and the
// trash of topics removed by fixes, each restorable.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, describeError } from '../api/client';
import type { MemoryEntry, MemoryHealthSource, MemoryProblem, MemorySource, ProblemKind } from '../api/types';
import { useRemote } from '../state/useRemote';
import { plural, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { SEVERITY, healthScore, isFixAllKind } from '../../../src/domain/memory/care/kinds';
import { FixAll } from './FixAll';
import { FixBanner } from './FixBanner';
import { LEVEL_TEXT, kindLabel, sourceLevel } from './healthSummary';
import { KIND_LABEL, problemKey } from './problemText';
import { RecentFixes } from './RecentFixes';
import type { FixFlow } from './useFixFlow';
import type { HealthModel } from './useMemoryHealth';
import './care.css';

interface Props {
  /** The sources the project picker lets through, in listing order. */
  sources: MemorySource[];
  health: HealthModel;
  fixes: FixFlow;
  entryOf(sourceId: string, file: string): MemoryEntry | null;
  onOpenEntry(entry: MemoryEntry): void;
  onOpenSource(sourceId: string): void;
  onChanged(): void;
}

const SHOWN_PER_SOURCE = 5;
/** Problems of a source listed while one kind is chosen. */
const SHOWN_OF_ONE_KIND = 50;

interface Row {
  source: MemorySource;
  health: MemoryHealthSource | undefined;
  score: number;
}

export function HealthOverview({ sources, health, fixes, entryOf, onOpenEntry, onOpenSource, onChanged }: Props) {
  const rows = useMemo<Row[]>(() => {
    const list = sources.map((source) => {
      const h = health.bySource.get(source.id);
      return { source, health: h, score: h ? healthScore(h.problems) : -1 };
    });
    // Worst first; among equals, folders Claude Code does not read before healthy-looking ones.
    return list.sort((a, b) => b.score - a.score || Number(a.source.active) - Number(b.source.active) ||
      a.source.project.localeCompare(b.source.project));
  }, [sources, health.bySource]);
  const totals = useMemo(() => {
    let problems = 0;
    let withProblems = 0;
    for (const r of rows) {
      const n = r.health?.problems.length ?? 0;
      problems += n;
      if (n > 0) withProblems++;
    }
    return { problems, withProblems };
  }, [rows]);

  // One kind of problem at a time, on a heavy home: the sources with it, and all of its problems in each.
  const [kind, setKind] = useState<ProblemKind | null>(null);
  const kinds = useMemo(() => countByKind(rows.flatMap((r) => r.health?.problems ?? [])), [rows]);
  const shown = kind === null ? rows : rows.filter((r) => r.health?.problems.some((p) => p.kind === kind));

  const openProblem = (sourceId: string, p: MemoryProblem) => {
    const entry = p.file ? entryOf(sourceId, p.file) : null;
    if (entry) onOpenEntry(entry);
    else onOpenSource(sourceId);
  };

  return (
    <section className="health-overview" aria-label="Memory health overview">
      <header className="health-overview-head">
        <h1>Memory health</h1>
        <p className="muted" role="status">
          {health.remote.status === 'loading' && !health.remote.data ? 'Checking every memory folder…' : (
            <>
              {plural(rows.length, 'source')} · {plural(totals.problems, 'problem')} in{' '}
              {plural(totals.withProblems, 'source')}
            </>
          )}
          {health.remote.status === 'error' && <span className="error-text"> · {describeError(health.remote.error)}</span>}
        </p>
      </header>
      <FixBanner fixes={fixes} readOnly={health.readOnly} reason={health.readOnlyReason} />
      {kinds.length > 1 && (
        <div className="type-chips health-kinds" role="group" aria-label="Show one kind of problem">
          <button type="button" className={`chip${kind === null ? ' on' : ''}`} aria-pressed={kind === null} onClick={() => setKind(null)}>
            all <span className="count">{totals.problems}</span>
          </button>
          {kinds.map(([k, n]) => (
            <button key={k} type="button" className={`chip${kind === k ? ' on' : ''}`} aria-pressed={kind === k} data-kind={k} onClick={() => setKind(kind === k ? null : k)}>
              {KIND_LABEL[k]} <span className="count">{n}</span>
            </button>
          ))}
        </div>
      )}
      <ol className="health-rows">
        {shown.map(({ source, health: h }) => {
          const status = sourceLevel(source, h?.load);
          const counts = countByKind(h?.problems ?? []);
          const problems = kind === null ? h?.problems ?? [] : (h?.problems ?? []).filter((p) => p.kind === kind);
          const limit = kind === null ? SHOWN_PER_SOURCE : SHOWN_OF_ONE_KIND;
          // One kind chosen whose fixes can be applied together: all of them in one previewed change.
          const fixable = kind !== null && isFixAllKind(kind) && !health.readOnly ? problems.filter((p) => p.fix !== null).length : 0;
          return (
            <li key={source.id} className={`health-row${source.active ? '' : ' inactive'}`} data-source-id={source.id}>
              <div className="health-row-head">
                <button type="button" className="link-button health-source" onClick={() => onOpenSource(source.id)} title={source.dir}>
                  {source.project}
                </button>
                <span className={`kind kind-${source.kind}`}>{kindLabel(source)}</span>
                <span className="health-status" data-status={statusOf(source, h)}>
                  {status && <span className={`health-dot level-${status}`} aria-hidden="true" />}
                  {statusText(source, h, status)}
                </span>
                <span className="health-counts">
                  {counts.map(([kind, n]) => (
                    <span key={kind} className={`problem-kind problem-kind-${kind}`}>{n} {KIND_LABEL[kind]}</span>
                  ))}
                </span>
              </div>
              {fixable > 0 && kind !== null && (
                <FixAll key={kind} sourceId={source.id} project={source.project} kind={kind} count={fixable} onChanged={onChanged} />
              )}
              {problems.length > 0 && (
                <ul className="health-row-problems">
                  {problems.slice(0, limit).map((p) => (
                    <li key={problemKey(p)}>
                      <button type="button" className="link-button" onClick={() => openProblem(source.id, p)}>
                        <span className={`problem-kind problem-kind-${p.kind}`}>{KIND_LABEL[p.kind]}</span>{' '}
                        {p.file ?? 'the folder'}{p.line !== null ? `:${p.line}` : ''}
                      </button>{' '}
                      <span className="muted problem-summary">{p.message}</span>
                    </li>
                  ))}
                  {problems.length > limit && (
                    <li>
                      <button type="button" className="link-button" onClick={() => onOpenSource(source.id)}>
                        and {problems.length - limit} more…
                      </button>
                    </li>
                  )}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
      <RecentFixes version={health.remote.version} readOnly={!health.writable} sources={sources} onChanged={onChanged} />
      <Trash version={health.remote.version} readOnly={!health.writable} sources={sources} onChanged={onChanged} onOpenSource={onOpenSource} />
    </section>
  );
}

function countByKind(problems: readonly MemoryProblem[]): [ProblemKind, number][] {
  const counts = new Map<ProblemKind, number>();
  for (const p of problems) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
  return SEVERITY.filter((k) => counts.has(k)).map((k) => [k, counts.get(k)!]);
}

function statusOf(source: MemorySource, h: MemoryHealthSource | undefined): string {
  if (!source.active) return 'inactive';
  if (!h) return 'unknown';
  return h.problems.length === 0 ? 'healthy' : 'problems';
}

function statusText(source: MemorySource, h: MemoryHealthSource | undefined, status: ReturnType<typeof sourceLevel>): string {
  if (!source.active) return LEVEL_TEXT.inactive;
  if (!h) return 'not checked yet';
  if (h.problems.length === 0) return status === 'near' ? `healthy · MEMORY.md ${LEVEL_TEXT.near}` : 'healthy';
  return status && status !== 'ok' ? `MEMORY.md ${LEVEL_TEXT[status]}` : plural(h.problems.length, 'problem');
}

/**
 * Topics removed by fixes, newest first; Restore is the fix's undo. A topic comes back whatever changed
 * since; when MEMORY.md changed, its index line does not, and the note below says how to add it back (the
 * orphan finding's "Add to MEMORY.md…", previewed like any fix).
 */
function Trash({ version, readOnly, sources, onChanged, onOpenSource }: {
  version: number; readOnly: boolean; sources: MemorySource[]; onChanged(): void; onOpenSource(sourceId: string): void;
}) {
  const toast = useToast();
  const [trash, reload] = useRemote(useCallback((signal: AbortSignal) => api.memoryTrash(signal), []));
  const [lineless, setLineless] = useState<{ sourceId: string; file: string } | null>(null);
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const items = trash.data?.items ?? [];
  const projectOf = new Map(sources.map((s) => [s.id, s.project]));
  const note = lineless && (
    <p className="notice trash-restored" role="status">
      Restored {lineless.file}. MEMORY.md changed since it was removed, so its index line was not put back.{' '}
      <button type="button" className="link-button" onClick={() => onOpenSource(lineless.sourceId)}>
        Add it to MEMORY.md…
      </button>
    </p>
  );
  if (items.length === 0) return note ? <section className="memory-trash" aria-label="Trash">{note}</section> : null;
  return (
    <section className="memory-trash" aria-label="Trash">
      <h2>Trash <span className="count">{items.length}</span></h2>
      {note}
      <ul>
        {items.map((item) => (
          <li key={item.undoId}>
            <span className="trash-file">{item.file}</span>{' '}
            <span className="muted">from {projectOf.get(item.sourceId) ?? item.dir}, removed {relativeTime(item.removed)}</span>{' '}
            <button
              type="button"
              disabled={readOnly}
              onClick={() => {
                api.memoryUndo(item.undoId).then(
                  (result) => {
                    setLineless(result.addToIndex);
                    toast(`Restored ${item.file}`, 'success');
                    reload();
                    onChanged();
                  },
                  (error: unknown) => toast(`Could not restore ${item.file}: ${describeError(error)}`, 'error'),
                );
              }}
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
