// The process entry (bundled as dist/cli.js, the bin's target): turns on Node's compile cache where the
// runtime has one (see config/compileCache.ts), then runs the application, dist/app.cjs. A bundle of its
// own because the cache only covers what is loaded after it is on.
import module, { createRequire } from 'node:module';
import { enableCompileCache, type CompileCacheApi } from './config/compileCache.js';

const status = enableCompileCache(module as CompileCacheApi);
if (process.env.PMV_TRACE) process.stderr.write(`plan-memory-viewer: compile cache ${status}\n`);
createRequire(import.meta.url)('./app.cjs');
