// Node's module compile cache (module.enableCompileCache(), from Node 22.1) keeps V8's bytecode of the
// bundles between runs, so that a start loads it instead of compiling them again. It only covers modules
// loaded after it is turned on, which is why the process entry (src/entry.ts) turns it on and then loads
// the application. Node 20 has no such cache: there a start compiles, and that is all. Node's own
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, and NODE_COMPILE_CACHE=<dir> puts it elsewhere.
import path from 'node:path';
import { cacheDir } from './cacheDir.js';

/** The part of `node:module` this needs, absent before Node 22.1 (and from @types/node 20). */
export interface CompileCacheApi {
  enableCompileCache?: (directory: string) => { status: number; message?: string; directory?: string };
  constants?: { compileCacheStatus?: Record<string, number> };
}

/** Under the viewer's cache dir; Node keeps one folder per Node version inside it. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheDir(env), 'compile-cache');
}

/**
 * Turns the compile cache on where the runtime has one; says what happened, for PMV_TRACE. A cache is
 * only an optimization: whatever goes wrong (an unwritable dir, a runtime that refuses), the start goes on.
 */
export function enableCompileCache(api: CompileCacheApi, directory = compileCacheDir()): string {
  if (typeof api.enableCompileCache !== 'function') return 'not offered by this runtime';
  try {
    const result = api.enableCompileCache(directory);
    const status = Object.entries(api.constants?.compileCacheStatus ?? {}).find(([, value]) => value === result.status)?.[0];
    return [status?.toLowerCase().replace('_', ' ') ?? `status ${result.status}`, result.directory && `in ${result.directory}`, result.message]
      .filter(Boolean).join(' ');
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
