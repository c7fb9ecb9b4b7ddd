// Live updates: GET /api/events (Server-Sent Events). EventSource reconnects by itself after a
// dropped connection; when the server refuses the stream (it closes for good) we retry with backoff.
// Every `ready` after the first means we were disconnected: the caller refetches everything.

export type LiveStatus = 'connecting' | 'live' | 'offline';

export interface LiveHandlers {
  onPlans(changed: string[], removed: string[]): void;
  onMemory(): void;
  onResync(): void;
  onStatus(status: LiveStatus): void;
  /** The server's `ready` says whether it serves the bundled demo home. */
  onDemo?(demo: boolean): void;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function parsePlansEvent(data: string): { changed: string[]; removed: string[] } {
  try {
    const parsed = JSON.parse(data) as { changed?: unknown; removed?: unknown } | null;
    return { changed: stringList(parsed?.changed), removed: stringList(parsed?.removed) };
  } catch {
    return { changed: [], removed: [] };
  }
}

export function parseReadyEvent(data: string): { demo: boolean } {
  try {
    const parsed = JSON.parse(data) as { demo?: unknown } | null;
    return { demo: parsed?.demo === true };
  } catch {
    return { demo: false };
  }
}

export function connectEvents(handlers: LiveHandlers, url = '/api/events'): () => void {
  if (typeof EventSource === 'undefined') {
    handlers.onStatus('offline');
    return () => undefined;
  }
  let source: EventSource | null = null;
  let readyCount = 0;
  let retryTimer: number | undefined;
  let retryDelay = 2000;
  let stopped = false;

  const open = () => {
    if (stopped) return;
    handlers.onStatus('connecting');
    const es = new EventSource(url);
    source = es;
    es.addEventListener('ready', (ev) => {
      readyCount += 1;
      handlers.onDemo?.(parseReadyEvent((ev as MessageEvent<string>).data).demo);
      retryDelay = 2000;
      handlers.onStatus('live');
      if (readyCount > 1) handlers.onResync();
    });
    es.addEventListener('plans', (ev) => {
      const { changed, removed } = parsePlansEvent((ev as MessageEvent<string>).data);
      handlers.onPlans(changed, removed);
    });
    es.addEventListener('memory', () => handlers.onMemory());
    es.addEventListener('error', () => {
      if (es.readyState === EventSource.CLOSED) {
        handlers.onStatus('offline');
        es.close();
        // Count the next successful connection as a reconnect so the caller resyncs.
        if (readyCount === 0) readyCount = 1;
        retryTimer = window.setTimeout(open, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30_000);
      } else {
        handlers.onStatus('connecting');
      }
    });
  };
  open();
  return () => {
    stopped = true;
    window.clearTimeout(retryTimer);
    source?.close();
  };
}
