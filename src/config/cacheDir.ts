// Where the viewer keeps its own derived data: $XDG_CACHE_HOME, else ~/.cache, under plan-memory-viewer/.
import os from 'node:os';
import path from 'node:path';

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'plan-memory-viewer');
}

/** The kind of the session index's cache file (`<kind>-<hash>.json`, see domain/cacheFile.ts). */
export const SESSION_INDEX_CACHE = 'session-index';

/** Where memory fixes keep the previous bytes of what they changed, and the trash of removed topics. */
export function careDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheDir(env), 'memory-care');
}
