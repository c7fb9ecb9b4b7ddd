// Builds the React UI (web/) into dist/web with Vite, programmatically, so `npm run build:web`
// needs no Vite CLI flags. The server serves dist/web/index.html at `/` and dist/web/assets/*, and the
// brotli and gzip copies made here of each text file (compress-web.js).
//
// Besides dist/web it leaves, in dist/.build/ (kept out of the package and never served):
//   web-modules.json  every module Vite put into a chunk, for build-notices.js
//   web-maps/         the chunks' source maps: the server loads every file of dist/web into memory on the
//                     first UI request, so they may not stay there
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { forgetBuilt } from './built.js';
import { compressWeb } from './compress-web.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const webRoot = fileURLToPath(new URL('../web/', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/web/', import.meta.url));
const records = fileURLToPath(new URL('../dist/.build/', import.meta.url));
const mapsDir = path.join(records, 'web-maps');

forgetBuilt();
const modules = new Set();
await build({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  logLevel: process.env.BUILD_WEB_QUIET ? 'warn' : 'info',
  build: { sourcemap: 'hidden' },
  plugins: [{
    name: 'record-modules',
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        // Repository-relative, like esbuild's metafile: the build's absolute path says nothing.
        for (const id of chunk.moduleIds) modules.add(path.isAbsolute(id) ? path.relative(root, id) : id);
      }
    },
  }],
});

await mkdir(records, { recursive: true });
await writeFile(path.join(records, 'web-modules.json'), `${JSON.stringify([...modules].sort(), null, 1)}\n`);
await rm(mapsDir, { recursive: true, force: true });
await mkdir(mapsDir, { recursive: true });
const assets = path.join(outDir, 'assets');
for (const name of await readdir(assets)) {
  if (name.endsWith('.map')) await rename(path.join(assets, name), path.join(mapsDir, name));
}

// The page is served with `script-src 'self'; style-src 'self'`: fail the build if Vite ever
// inlines a script or a style block into index.html.
const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html) || /<style[\s>]/i.test(html) || /\sstyle=/i.test(html)) {
  console.error('dist/web/index.html contains inline script or style; the CSP would block it.');
  process.exit(1);
}

const t0 = performance.now();
const packed = await compressWeb(outDir);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(`dist/web: ${packed.files} files compressed in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
  `(${kb(packed.raw)}: brotli ${kb(packed.br)}, gzip ${kb(packed.gz)})`);
