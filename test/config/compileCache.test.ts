// The compile cache is turned on through feature detection: Node 22.1+ offers module.enableCompileCache(),
// Node 20 (what runs here and in CI) does not. The runtimes that offer it cannot run here, so a stand-in
// for that one function of node:module plays them; test/cli/compileCache.test.ts runs the real runtime.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir, enableCompileCache, type CompileCacheApi } from '../../src/config/compileCache.js';

/** Node 22's constants (lib/internal/modules/helpers.js), and a recorder of the directories asked for. */
const STATUS = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };
function runtime(answer: (directory: string) => ReturnType<NonNullable<CompileCacheApi['enableCompileCache']>>): CompileCacheApi & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    constants: { compileCacheStatus: STATUS },
    enableCompileCache: (directory) => {
      asked.push(directory);
      return answer(directory);
    },
  };
}

describe('the compile cache', () => {
  it('lives in the viewer\'s cache dir', () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe(path.join('/x/cache', 'plan-memory-viewer', 'compile-cache'));
  });

  it('is turned on in that dir where the runtime offers it', () => {
    const node22 = runtime((directory) => ({ status: STATUS.ENABLED, directory }));
    expect(enableCompileCache(node22, '/x/cache/plan-memory-viewer/compile-cache')).toBe('enabled in /x/cache/plan-memory-viewer/compile-cache');
    expect(node22.asked).toEqual(['/x/cache/plan-memory-viewer/compile-cache']);
    // By default, where compileCacheDir() says.
    enableCompileCache(node22);
    expect(node22.asked[1]).toBe(compileCacheDir());
  });

  it('reports what the runtime says when it declines: turned off by the user, or already on elsewhere', () => {
    const off = runtime(() => ({ status: STATUS.DISABLED, message: 'Disabled by NODE_DISABLE_COMPILE_CACHE' }));
    expect(enableCompileCache(off, '/c')).toBe('disabled Disabled by NODE_DISABLE_COMPILE_CACHE');
    const elsewhere = runtime(() => ({ status: STATUS.ALREADY_ENABLED, directory: '/from/NODE_COMPILE_CACHE' }));
    expect(enableCompileCache(elsewhere, '/c')).toBe('already enabled in /from/NODE_COMPILE_CACHE');
  });

  it('is absent, and nothing is attempted, on a runtime without it (Node 20)', () => {
    expect(enableCompileCache({}, '/c')).toBe('not offered by this runtime');
    expect(enableCompileCache({ constants: {} }, '/c')).toBe('not offered by this runtime');
  });

  it('never stops a start: a runtime that fails or throws only leaves it off', () => {
    const failed = runtime(() => ({ status: STATUS.FAILED, message: 'Cannot create cache directory: EACCES' }));
    expect(enableCompileCache(failed, '/c')).toBe('failed Cannot create cache directory: EACCES');
    const throwing = runtime(() => {
      throw new TypeError('The "directory" argument must be of type string');
    });
    expect(enableCompileCache(throwing, '/c')).toBe('failed: The "directory" argument must be of type string');
  });
});
