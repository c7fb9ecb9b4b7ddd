// A session's log a page at a time (GET /api/sessions/{id}/transcript): the pages loaded so far, one
// after another, and the way to the next. A page is read from a byte cursor, so a huge log opens at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isAbort } from '../api/client';
import type { TranscriptEntry } from '../api/types';

export interface Transcript {
  status: 'loading' | 'ready' | 'missing' | 'error';
  error: unknown;
  entries: TranscriptEntry[];
  /** Where the next page starts; null at the end of the log. */
  next: number | null;
  subagents: string[];
  totalBytes: number;
  /** A page is on its way. */
  busy: boolean;
  loadMore(): void;
}

/** What the hook keeps: the answer but its action, for the log and start it was loaded from. */
type State = Omit<Transcript, 'loadMore'> & { key: string };

export const PAGE_LINES = 200;

/** The log of `sessionId` (a subagent's with `agent`) from byte `start` on. */
export function useTranscript(sessionId: string, agent: string, start: number, retry = 0): Transcript {
  const key = `${sessionId}\n${agent}\n${start}\n${retry}`;
  const [state, setState] = useState<State>({ key, status: 'loading', error: null, entries: [], next: start, subagents: [], totalBytes: 0, busy: true });
  const current = useRef(state);
  current.current = state;
  const ctrl = useRef<AbortController | null>(null);

  const fetchPage = useCallback(
    (cursor: number, first: boolean) => {
      ctrl.current?.abort();
      const c = new AbortController();
      ctrl.current = c;
      setState((s) => (first ? { key, status: 'loading', error: null, entries: [], next: cursor, subagents: [], totalBytes: 0, busy: true } : { ...s, busy: true }));
      api
        .transcript(sessionId, { cursor, agent, limit: PAGE_LINES }, c.signal)
        .then((page) => {
          if (c.signal.aborted) return;
          setState((s) => ({
            key,
            status: 'ready',
            error: null,
            entries: first ? page.entries : [...s.entries, ...page.entries],
            next: page.nextCursor,
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
    fetchPage(start, true);
    return () => ctrl.current?.abort();
  }, [fetchPage, start]);

  const loadMore = useCallback(() => {
    const s = current.current;
    if (s.busy || s.next === null || s.status !== 'ready') return;
    fetchPage(s.next, false);
  }, [fetchPage]);

  const shown = state.key === key ? state : { ...state, status: 'loading' as const, entries: [], busy: true };
  return { ...shown, loadMore };
}
