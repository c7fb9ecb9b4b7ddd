// Ctrl+K / ⌘K: one ranked search over plans, memory and sessions (GET /api/find). Results come grouped by
// kind, each with its snippets and the matched words marked; arrows move, Enter opens the result at the
// matched line (the reader marks the matched text and scrolls to it), Esc closes.
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { api, describeError, isAbort } from '../api/client';
import type { FindBody } from '../api/types';
import type { FindHit, FindSnippetView } from './found';
import { SnippetParts } from './Snippet';
import './palette.css';

const KIND_LABEL: Record<FindHit['kind'], string> = { plan: 'Plans', memory: 'Memory', session: 'Sessions' };
const DEBOUNCE_MS = 80;

/** Results grouped by kind, groups in the order of their best result, ranks kept within a group. */
export function groupByKind(results: readonly FindHit[]): { kind: FindHit['kind']; hits: FindHit[] }[] {
  const groups = new Map<FindHit['kind'], FindHit[]>();
  for (const hit of results) {
    const list = groups.get(hit.kind) ?? [];
    list.push(hit);
    groups.set(hit.kind, list);
  }
  return [...groups].map(([kind, hits]) => ({ kind, hits }));
}

export function FindPalette({ onOpen }: { onOpen(hit: FindHit, snippet: FindSnippetView | undefined, query: string): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [answer, setAnswer] = useState<FindBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  // Captured before the app's own shortcuts, where Ctrl+K focused the search box.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        e.stopPropagation();
        setOpen(true);
        window.setTimeout(() => input.current?.select(), 0);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Focused here, not by autoFocus: React focuses an autoFocus element when it mounts, in the closed
    // dialog, which makes the browser lay the whole first screen out before its first paint.
    if (open && !dialog.open) {
      dialog.showModal();
      input.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (!open || q.trim() === '') {
      setAnswer(null);
      setError(null);
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api.find(q, controller.signal).then((body) => {
        setAnswer(body);
        setError(null);
        setActive(0);
      }, (e: unknown) => {
        if (!isAbort(e)) setError(describeError(e));
      });
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [q, open]);

  const groups = useMemo(() => groupByKind(answer?.results ?? []), [answer]);
  const flat = useMemo(() => groups.flatMap((g) => g.hits), [groups]);

  const choose = (hit: FindHit | undefined) => {
    if (hit === undefined) return;
    setOpen(false);
    onOpen(hit, hit.snippets[0], q);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    // A search field's Escape would only clear the text: it closes the palette (the text stays for next time).
    if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (flat.length === 0) return;
      const next = (active + (e.key === 'ArrowDown' ? 1 : -1) + flat.length) % flat.length;
      setActive(next);
      window.setTimeout(() => ref.current?.querySelector(`[data-find-index="${next}"]`)?.scrollIntoView({ block: 'nearest' }), 0);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(flat[active]);
    }
  };

  let index = -1;
  return (
    <dialog ref={ref} className="find-palette" aria-label="Find anything" onClose={() => setOpen(false)} onCancel={() => setOpen(false)} onKeyDown={onKeyDown}>
      <input
        ref={input}
        className="find-input"
        type="search"
        placeholder="Find in plans, memory and sessions…  (project:, type:, in:, after:, before:, &quot;a phrase&quot;)"
        aria-label="Find anything"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setActive(0);
        }}
      />
      <div className="find-results" role="listbox" aria-label="Results">
        {error && <p className="find-message">{error}</p>}
        {answer && answer.total === 0 && <p className="find-message">Nothing found.</p>}
        {answer && answer.total > flat.length && <p className="find-message find-count">{flat.length} of {answer.total} shown</p>}
        {groups.map((group) => (
          <Fragment key={group.kind}>
            <h3 className="find-group">{KIND_LABEL[group.kind]}</h3>
            {group.hits.map((hit) => {
              index++;
              const i = index;
              return (
                <div
                  key={`${hit.kind}:${hit.id}`}
                  className={`find-hit${i === active ? ' active' : ''}`}
                  role="option"
                  aria-selected={i === active}
                  data-find-index={i}
                  data-kind={hit.kind}
                  data-id={hit.id}
                  onMouseMove={() => setActive(i)}
                  onClick={() => choose(hit)}
                >
                  <div className="find-title">
                    <span>{hit.title}</span>
                    {hit.project && <span className="find-project">{hit.project}</span>}
                  </div>
                  {hit.snippets.map((s) => (
                    <div className="find-snippet" key={s.line}>
                      <SnippetParts snippet={s} />
                    </div>
                  ))}
                </div>
              );
            })}
          </Fragment>
        ))}
      </div>
    </dialog>
  );
}
