// Loading remote data with explicit loading / error states, keeping the last good value while a
// refresh is in flight (so a live update never blanks the screen or loses the scroll position).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isAbort } from '../api/client';

export interface Remote<T> {
  status: 'loading' | 'ready' | 'error';
  data: T | null;
  error: unknown;
  /** Bumps on every successful load. */
  version: number;
}

/**
 * `enabled`: nothing is fetched while it is false. `initial`: data already loaded (read once, at mount),
 * which the first state holds instead of loading it again.
 */
export function useRemote<T>(load: (signal: AbortSignal) => Promise<T>, enabled = true, initial?: () => T | null): [Remote<T>, () => void] {
  const [state, setState] = useState<Remote<T>>(() => {
    const data = initial?.() ?? null;
    return data === null ? { status: 'loading', data: null, error: null, version: 0 } : { status: 'ready', data, error: null, version: 1 };
  });
  const loaded = useRef(state.status === 'ready');
  const controller = useRef<AbortController | null>(null);
  const loader = useRef(load);
  loader.current = load;

  const reload = useCallback(() => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    loader
      .current(ctrl.signal)
      .then((data) => {
        if (ctrl.signal.aborted) return;
        setState((s) => ({ status: 'ready', data, error: null, version: s.version + 1 }));
      })
      .catch((error: unknown) => {
        if (isAbort(error) || ctrl.signal.aborted) return;
        setState((s) => ({ ...s, status: s.data ? 'ready' : 'error', error }));
      });
  }, []);

  useEffect(() => {
    if (!enabled) return;
    if (loaded.current) loaded.current = false;
    else reload();
    return () => controller.current?.abort();
  }, [enabled, reload]);

  return [state, reload];
}

/** Calls `reload` whenever `bump` changes after the first render (a live update says the answer moved). */
export function useReloadOn(bump: number, reload: () => void): void {
  const seen = useRef(bump);
  useEffect(() => {
    if (seen.current === bump) return;
    seen.current = bump;
    reload();
  }, [bump, reload]);
}

export interface ContentState {
  status: 'idle' | 'loading' | 'ready' | 'missing' | 'error';
  text: string | null;
  error: unknown;
  /** Which key the text belongs to. */
  key: string | null;
  /** Loads it again (after an error). */
  retry(): void;
}

/**
 * Content of one document (plan or memory entry). `version` changes make it refetch; the previous
 * text of the same key stays on screen meanwhile.
 */
export function useContent(key: string | null, version: number, load: (key: string, signal: AbortSignal) => Promise<string>): ContentState {
  const [state, setState] = useState<Omit<ContentState, 'retry'>>({ status: 'idle', text: null, error: null, key: null });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    if (!key) {
      setState({ status: 'idle', text: null, error: null, key: null });
      return;
    }
    const ctrl = new AbortController();
    setState((s) => (s.key === key && s.text !== null ? s : { status: 'loading', text: null, error: null, key }));
    loader
      .current(key, ctrl.signal)
      .then((text) => {
        if (!ctrl.signal.aborted) setState({ status: 'ready', text, error: null, key });
      })
      .catch((error: unknown) => {
        if (isAbort(error) || ctrl.signal.aborted) return;
        const status = (error as { status?: number }).status === 404 ? 'missing' : 'error';
        setState({ status, text: null, error, key });
      });
    return () => ctrl.abort();
  }, [key, version, attempt]);

  return useMemo(() => ({ ...state, retry }), [state, retry]);
}

/** Debounced server-side search; null while no answer for the current query is known. */
export function useServerSearch(query: string, version: number, search: (q: string, signal: AbortSignal) => Promise<string[]>, delay = 200): {
  hits: ReadonlySet<string> | null;
  pending: boolean;
  failed: boolean;
  /** Asks again (after a failure). */
  retry(): void;
} {
  const [result, setResult] = useState<{ q: string; version: number; hits: ReadonlySet<string> | null; failed: boolean }>({
    q: '', version: -1, hits: null, failed: false,
  });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    // Forget the failure: the query is pending again until the new answer.
    setResult((r) => ({ ...r, q: '', failed: false }));
    setAttempt((n) => n + 1);
  }, []);
  const searcher = useRef(search);
  searcher.current = search;
  const q = query.trim();

  useEffect(() => {
    if (!q) return;
    const ctrl = new AbortController();
    const timer = window.setTimeout(() => {
      searcher
        .current(q, ctrl.signal)
        .then((list) => setResult({ q, version, hits: new Set(list), failed: false }))
        .catch((error: unknown) => {
          if (!isAbort(error)) setResult({ q, version, hits: null, failed: true });
        });
    }, delay);
    return () => {
      window.clearTimeout(timer);
      ctrl.abort();
    };
  }, [q, version, delay, attempt]);

  if (!q) return { hits: null, pending: false, failed: false, retry };
  const current = result.q === q;
  // Keep showing hits of the same query from before a live update until the new answer arrives.
  return { hits: current ? result.hits : null, pending: !current || result.version !== version, failed: current && result.failed, retry };
}
