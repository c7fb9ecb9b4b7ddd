// Loading what the history screens show: a plan's history, the text of its versions, session cards and
// the retention policy, each through the public API (api/client.ts).
import { useEffect, useRef, useState } from 'react';
import { api, isAbort } from '../api/client';
import type { PlanHistoryBody, RetentionPolicy, SessionCard } from '../api/types';

export interface Loaded<T> {
  status: 'idle' | 'loading' | 'ready' | 'missing' | 'error';
  data: T | null;
  error: unknown;
  /** The key the data belongs to. */
  key: string | null;
}

/**
 * Data for a key, fetched again when `version` changes; the previous data of the same key stays on
 * screen meanwhile (a live update never blanks the screen).
 */
export function useKeyed<T>(key: string | null, version: number, load: (key: string, signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'idle', data: null, error: null, key: null });
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (key === null) {
      setState({ status: 'idle', data: null, error: null, key: null });
      return;
    }
    const ctrl = new AbortController();
    setState((s) => (s.key === key && s.data !== null ? s : { status: 'loading', data: null, error: null, key }));
    loader
      .current(key, ctrl.signal)
      .then((data) => {
        if (!ctrl.signal.aborted) setState({ status: 'ready', data, error: null, key });
      })
      .catch((error: unknown) => {
        if (isAbort(error) || ctrl.signal.aborted) return;
        setState({ status: (error as { status?: number }).status === 404 ? 'missing' : 'error', data: null, error, key });
      });
    return () => ctrl.abort();
  }, [key, version]);
  return state.key === key ? state : { status: key === null ? 'idle' : 'loading', data: null, error: null, key };
}

export function usePlanHistory(filename: string | null, version: number): Loaded<PlanHistoryBody> {
  return useKeyed(filename, version, (name, signal) => api.history(name, signal));
}

/**
 * The texts of a history's versions, fetched once each while that history is the one shown (an edit's
 * text depends on the versions before it, so a new history starts a new cache).
 */
export class VersionTexts {
  private readonly texts = new Map<string, Promise<string>>();
  constructor(private readonly filename: string) {}

  get(id: string): Promise<string> {
    let text = this.texts.get(id);
    if (text === undefined) {
      text = api.version(this.filename, id);
      // A failed fetch is not kept: the next ask tries again.
      text.catch(() => this.texts.delete(id));
      this.texts.set(id, text);
    }
    return text;
  }
}

/** The text of one version, or null while it loads; `error` when it could not be had. */
export function useVersionText(texts: VersionTexts | null, id: string | null): { text: string | null; error: unknown } {
  const [state, setState] = useState<{ key: string | null; text: string | null; error: unknown }>({ key: null, text: null, error: null });
  useEffect(() => {
    if (texts === null || id === null) return;
    let live = true;
    texts.get(id).then(
      (text) => {
        if (live) setState({ key: id, text, error: null });
      },
      (error: unknown) => {
        if (live) setState({ key: id, text: null, error });
      },
    );
    return () => {
      live = false;
    };
  }, [texts, id]);
  return state.key === id ? state : { text: null, error: null };
}

// Session cards: cached for the page's life (a card changes little while one reads), at most a few
// requests at a time, so a list scrolled quickly past many untitled plans queues rather than floods.
const MAX_CARDS_KEPT = 500;
const MAX_IN_FLIGHT = 3;
const cards = new Map<string, Promise<SessionCard | null>>();
const waiting: (() => void)[] = [];
let inFlight = 0;

function slot(): Promise<void> {
  if (inFlight < MAX_IN_FLIGHT) {
    inFlight += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(() => resolve()));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else inFlight -= 1;
}

/** A session's card (null: no log names it), fetched once. */
export function sessionCard(sessionId: string): Promise<SessionCard | null> {
  let card = cards.get(sessionId);
  if (card === undefined) {
    card = slot().then(() =>
      api
        .session(sessionId)
        .catch((error: unknown) => {
          // Unknown sessions are remembered as such; a failed request is not.
          if ((error as { status?: number }).status === 404) return null;
          cards.delete(sessionId);
          throw error;
        })
        .finally(release),
    );
    if (cards.size >= MAX_CARDS_KEPT) cards.delete(cards.keys().next().value!);
    cards.set(sessionId, card);
  }
  return card;
}

/**
 * A session's card once known; `delayMs` waits before asking, and asks nothing if the component is gone
 * by then (rows scrolled past).
 */
export function useSessionCard(sessionId: string | null, delayMs = 0): { card: SessionCard | null; status: 'idle' | 'loading' | 'ready' | 'missing' | 'error' } {
  const [state, setState] = useState<{ id: string | null; card: SessionCard | null; status: 'ready' | 'missing' | 'error' }>({ id: null, card: null, status: 'ready' });
  useEffect(() => {
    if (sessionId === null) return;
    let live = true;
    const ask = () => {
      sessionCard(sessionId).then(
        (card) => {
          if (live) setState({ id: sessionId, card, status: card === null ? 'missing' : 'ready' });
        },
        () => {
          if (live) setState({ id: sessionId, card: null, status: 'error' });
        },
      );
    };
    const timer = delayMs > 0 ? window.setTimeout(ask, delayMs) : (ask(), undefined);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [sessionId, delayMs]);
  if (sessionId === null) return { card: null, status: 'idle' };
  return state.id === sessionId ? state : { card: null, status: 'loading' };
}

/** The retention policy, asked once per page (it changes only when the user edits their settings). */
let policy: Promise<RetentionPolicy> | null = null;

export function useRetentionPolicy(enabled: boolean): RetentionPolicy | null {
  const [value, setValue] = useState<RetentionPolicy | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    policy ??= api.retention().catch((error: unknown) => {
      policy = null;
      throw error;
    });
    policy.then(
      (p) => {
        if (live) setValue(p);
      },
      () => undefined, // no badge rather than a wrong one
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return value;
}
