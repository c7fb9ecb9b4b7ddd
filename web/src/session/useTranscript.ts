// A session's log a page at a time (GET /api/sessions/{id}/transcript): the pages loaded so far, one
// after another, and the ways to the next and, for a log opened in its middle (a deep link), to the one
// before. A page is read from a byte cursor, so a huge log opens at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isAbort } from '../api/client';
import type { TranscriptEntry } from '../api/types';

export interface Transcript {
  status: 'loading' | 'ready' | 'missing' | 'error';
  error: unknown;
  entries: TranscriptEntry[];
  /** Where the next page starts; null at the end of the log. */
  next: number | null;
  /** Where the page before the first one loaded starts; null at the start of the log. */
  prev: number | null;
  /** The cursor the first page loaded was read from: entries before it come from loadEarlier(). */
  first: number;
  subagents: string[];
  totalBytes: number;
  /** A page is on its way. */
  busy: boolean;
  loadMore(): void;
  loadEarlier(): void;
}

/** What the hook keeps: the answer but its actions, for the log and start it was loaded from. */
type State = Omit<Transcript, 'loadMore' | 'loadEarlier'> & { key: string };

export const PAGE_LINES = 200;

/** The log of `sessionId` (a subagent's with `agent`) from byte `start` on. */
export function useTranscript(sessionId: string, agent: string, start: number, retry = 0): Transcript {
  const key = `${sessionId}\n${agent}\n${start}\n${retry}`;
  const [state, setState] = useState<State>({ key, status: 'loading', error: null, entries: [], next: start, prev: null, first: start, subagents: [], totalBytes: 0, busy: true });
  const current = useRef(state);
  current.current = state;
  const ctrl = useRef<AbortController | null>(null);

  const fetchPage = useCallback(
    (cursor: number, how: 'first' | 'after' | 'before') => {
      const first = how === 'first';
      ctrl.current?.abort();
      const c = new AbortController();
      ctrl.current = c;
      setState((s) => (first ? { key, status: 'loading', error: null, entries: [], next: cursor, prev: null, first: cursor, subagents: [], totalBytes: 0, busy: true } : { ...s, busy: true }));
      api
        .transcript(sessionId, { cursor, agent, limit: PAGE_LINES }, c.signal)
        .then((page) => {
          if (c.signal.aborted) return;
          setState((s) => ({
            key,
            status: 'ready',
            error: null,
            // A page before the first: only what comes before it (a page from the log's start may read on).
            entries: first ? page.entries : how === 'after' ? [...s.entries, ...page.entries] : [...page.entries.filter((e) => e.cursor < s.first), ...s.entries],
            next: how === 'before' ? s.next : page.nextCursor,
            prev: how === 'after' ? s.prev : page.prevCursor,
            first: how === 'after' ? s.first : cursor,
            subagents: page.subagents,
            totalBytes: page.totalBytes,
            busy: false,
          }));
        })
        .catch((error: unknown) => {
          if (isAbort(error) || c.signal.aborted) return;
          const missing = (error as { status?: number }).status === 404;
          setState((s) => (first || missing ? { ...s, status: missing ? 'missing' : 'error', error, busy: false } : { ...s, error, busy: false }));
        });
    },
    [key, sessionId, agent],
  );

  useEffect(() => {
    fetchPage(start, 'first');
    return () => ctrl.current?.abort();
  }, [fetchPage, start]);

  const loadMore = useCallback(() => {
    const s = current.current;
    if (s.busy || s.next === null || s.status !== 'ready') return;
    fetchPage(s.next, 'after');
  }, [fetchPage]);

  const loadEarlier = useCallback(() => {
    const s = current.current;
    if (s.busy || s.prev === null || s.status !== 'ready') return;
    fetchPage(s.prev, 'before');
  }, [fetchPage]);

  const shown = state.key === key ? state : { ...state, status: 'loading' as const, entries: [], busy: true };
  return { ...shown, loadMore, loadEarlier };
}
