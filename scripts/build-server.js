// Bundles the server into dist/ with esbuild: one file per entry point instead of ~600 modules, which
// halves the time from `node` to a listening server (module resolution and loading dominated it).
// Type-checking is separate (`npm run typecheck`).
import { build } from 'esbuild';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist/', import.meta.url));

// Everything in dist/ but web/ (which build-web.js owns) is the server's: start clean, so no chunk of
// an older build is left next to the new ones.
await mkdir(outdir, { recursive: true });
for (const entry of await readdir(outdir)) {
  if (entry !== 'web') await rm(`${outdir}${entry}`, { recursive: true, force: true });
}

await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/cli.ts', out: 'cli' },
    { in: 'src/domain/sessions/scanWorker.ts', out: 'scanWorker' },
  ],
  outdir,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'linked',
  logLevel: 'warning',
  // Some bundled dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: "import { createRequire as __pmvCreateRequire } from 'node:module'; const require = __pmvCreateRequire(import.meta.url);" },
});
