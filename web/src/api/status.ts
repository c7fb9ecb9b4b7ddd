// GET /api/status shared by whoever shows it (the top bar's home, the progress page): one request at the
// start, then one every POLL_MS while the first scan runs, and none after it.
import { useSyncExternalStore } from 'react';
import type { StatusBody } from './types';
import { api } from './client';

const POLL_MS = 400;

let current: StatusBody | null = null;
let started = false;
const listeners = new Set<() => void>();

function poll(): void {
  api.status().then((body) => {
    current = body;
    for (const listener of listeners) listener();
    if (!body.loaded) window.setTimeout(poll, POLL_MS);
  }, () => {
    // A service that does not answer: the views say so on their own requests; try again a little later.
    window.setTimeout(poll, POLL_MS * 5);
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!started) {
    started = true;
    poll();
  }
  return () => listeners.delete(listener);
}

/** The home shown and the first scan's progress; null until the first answer. */
export function useStatus(): StatusBody | null {
  return useSyncExternalStore(subscribe, () => current, () => null);
}
