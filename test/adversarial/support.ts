// Shared by the adversarial and soak suites: a real server on loopback whose warnings the test can read,
// an SSE subscriber, and a few small helpers. Everything goes to 127.0.0.1 only.
import http from 'node:http';
import type { Opener } from '../../src/http/routes/actions.js';
import type { Viewer } from '../../src/viewer.js';
import { startServer, type Running } from '../helpers/http.js';

export type Harness = Running;

/** The shared server harness: warnings and opener calls are kept on it for the assertions here. */
export function harness(options: { claudeDir: string; homeDir?: string; watch?: boolean; opener?: Opener }): Promise<Harness> {
  return startServer(options);
}

interface WatcherInternals {
  watchers: {
    planWatchers: Map<string, { watcher: { getWatched(): Record<string, string[]> } }>;
    memoryWatchers: Map<string, { watcher: { getWatched(): Record<string, string[]> } }>;
    projectsWatcher: { watcher: { getWatched(): Record<string, string[]> } } | null;
  } | null;
}

/** Every directory the viewer's watchers hold (test-only look at private state). */
export function watchedDirs(viewer: Viewer): string[] {
  const w = (viewer as unknown as WatcherInternals).watchers;
  if (!w) return [];
  const all = [...w.planWatchers.values(), ...w.memoryWatchers.values(), ...(w.projectsWatcher ? [w.projectsWatcher] : [])];
  return [...new Set(all.flatMap((t) => Object.keys(t.watcher.getWatched())))].sort();
}

export interface EventStream {
  status: number;
  text(): string;
  /** Number of `event: <type>` frames received so far. */
  count(type: string): number;
  close(): void;
}

export function subscribe(port: number): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => void (text += c));
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0,
        text: () => text,
        count: (type) => text.split(`event: ${type}\n`).length - 1,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** Runs fn over items with at most `limit` in flight. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
