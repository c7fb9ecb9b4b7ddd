// Memory sources grouped by project, each with its kind, an "inactive" mark, index health under Claude
// Code's load budget, its problem count, and its entries (filtered by the search and the type chips;
// pinned and untyped memories marked as the states they are), with find's snippets under the matching
// entries while searching.
import type { MemoryEntry, MemoryHealthSource } from '../api/types';
import type { Found } from '../find/boxFind';
import type { FindSnippetView } from '../find/found';
import { SnippetButtons } from '../find/Snippet';
import { Highlight } from '../search/Highlight';
import { findOrphans } from '../../../src/domain/memory/orphans';
import { plural } from '../ui/format';
import { kindLabel, LEVEL_TEXT, sourceLevel } from './healthSummary';
import type { MemoryModel } from './useMemoryModel';

interface Props {
  model: MemoryModel;
  health: Map<string, MemoryHealthSource>;
  query: string;
  /** Find's results for the query by entry id: their snippets go under the entries. */
  found: ReadonlyMap<string, Found> | null;
  onSelectSource(sourceId: string): void;
  onSelectEntry(entry: MemoryEntry): void;
  /** A snippet was clicked: open the entry at its line. */
  onOpenSnippet(entry: MemoryEntry, snippet: FindSnippetView): void;
}

export function SourceList({ model, health, query, found, onSelectSource, onSelectEntry, onOpenSnippet }: Props) {
  const activeId = model.activeSource?.id ?? null;
  const selectedEntry = model.activeEntry?.id ?? null;
  // While searching, projects without a hit are left out.
  const groups = model.groups.filter(
    (group) => !model.searching || group.sources.some((s) => (model.visible.get(s.id) ?? []).length > 0),
  );
  return (
    <nav className="source-list" id="memory-source-list" aria-label="Memory sources">
      {groups.map((group) => (
        <section key={group.project} className="source-group" aria-label={`Project ${group.project}`}>
          <h2 className="group-title">
            <Highlight text={group.project} query={query} />
          </h2>
          {group.sources.map((source) => {
            const hits = model.visible.get(source.id) ?? [];
            const expanded = source.id === activeId || model.searching;
            const checked = health.get(source.id);
            const level = sourceLevel(source, checked?.load);
            const pinned = new Set(checked?.pinned ?? []);
            // The one definition of an orphan (orphans.ts), as the health check and the Document tab use it.
            const orphans = new Set(findOrphans(model.entriesBySource.get(source.id) ?? [], pinned).map((o) => o.file));
            const problems = checked?.problems.length ?? 0;
            if (model.searching && hits.length === 0) return null;
            return (
              <div key={source.id} className={`source${source.id === activeId ? ' active' : ''}${source.active ? '' : ' inactive'}`}>
                <button
                  type="button"
                  className="source-button"
                  aria-expanded={expanded}
                  aria-current={source.id === activeId ? 'true' : undefined}
                  onClick={() => onSelectSource(source.id)}
                  title={source.dir}
                >
                  <span className="source-line">
                    <span className={`kind kind-${source.kind}`}>{kindLabel(source)}</span>
                    {level && (
                      <span className={`health-dot level-${level}`} title={level === 'inactive' ? LEVEL_TEXT[level] : `MEMORY.md ${LEVEL_TEXT[level]}`}>
                        <span className="sr-only">{level === 'inactive' ? LEVEL_TEXT[level] : `MEMORY.md ${LEVEL_TEXT[level]}`}</span>
                      </span>
                    )}
                    <span className="count">{plural(source.entryCount, 'topic')}</span>
                    {problems > 0 && (
                      <span className="badge badge-problems" title="Problems the health check found">
                        {plural(problems, 'problem')}
                      </span>
                    )}
                  </span>
                  {!source.active && <span className="badge badge-inactive">not read by Claude Code</span>}
                  {!source.index && <span className="badge badge-warn">no MEMORY.md</span>}
                </button>
                {expanded && hits.length > 0 && (
                  <ul className="entry-list">
                    {hits.map(({ entry, byContent, byMeta }) => (
                      <li key={entry.id}>
                        <button
                          type="button"
                          className={`entry-button${entry.id === selectedEntry ? ' selected' : ''}`}
                          aria-current={entry.id === selectedEntry ? 'true' : undefined}
                          data-entry-id={entry.id}
                          onClick={() => onSelectEntry(entry)}
                        >
                          <span className="entry-name">
                            {entry.isIndex ? <strong>MEMORY.md</strong> : <Highlight text={entry.name} query={query} />}
                          </span>
                          <span className="entry-flags">
                            {pinned.has(entry.filename) && <span className="badge badge-pinned" title="Pinned: applies to every session">pinned</span>}
                            {entry.type ? (
                              <span className={`type-chip type-${entry.type}`}>{entry.type}</span>
                            ) : !entry.isIndex && !pinned.has(entry.filename) && (
                              <span className="type-chip type-none" title="No type: a normal state, not an error">untyped</span>
                            )}
                            {orphans.has(entry.filename) && (
                              <span className="badge badge-warn" title="MEMORY.md does not link to this file, nor a topic it links">
                                not in index
                              </span>
                            )}
                            {byContent && !byMeta && <span className="badge badge-content">in text</span>}
                          </span>
                        </button>
                        {model.searching && (found?.get(entry.id)?.snippets.length ?? 0) > 0 && (
                          <SnippetButtons snippets={found!.get(entry.id)!.snippets} className="entry-snippet" onOpen={(snippet) => onOpenSnippet(entry, snippet)} />
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            );
          })}
        </section>
      ))}
    </nav>
  );
}
