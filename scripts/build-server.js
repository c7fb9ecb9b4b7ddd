// Bundles the server into dist/ with esbuild: one script instead of ~600 modules (module resolution and
// loading dominated the start). Type-checking is separate (`npm run typecheck`).
//
//   dist/cli.js         the process entry (src/entry.ts), the bin's target: turns on Node's compile cache
//                       where there is one, then requires app.cjs
//   dist/app.cjs        the application (src/cli.ts) but its HTTP server
//   dist/server.cjs     the HTTP server (src/http/server.ts) and its libraries, ~80% of the code: the
//                       application requires it once the scan has started, so loading it overlaps the scan
//   dist/scanWorker.js  the session-log worker thread (src/domain/sessions/scanWorker.ts)
//   dist/mcp.cjs        the Model Context Protocol (src/mcp/index.ts) with its SDK: required by `mcp` and by
//                       the first request to /mcp, so no other start parses it
//   dist/lib/*.cjs      libraries a start does not run (ajv's compiler, yaml, pino ...), each bundled apart and
//                       required on first use through a stand-in in the bundles above (deferred-modules.js)
//   dist/package.json   {"type": "commonjs"}: all of the above are CommonJS scripts
//   dist/*.map          source maps, for debugging from a checkout (not packed)
//   dist/.build/server-modules.json  every input file with bytes in a bundle, for build-notices.js
import { build } from 'esbuild';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { forgetBuilt } from './built.js';
import { BUNDLED_APART, deferModules, libFile } from './deferred-modules.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist/', import.meta.url));

// Everything in dist/ but web/ (which build-web.js owns) and the build's records in .build/ is the
// server's: start clean, so no file of an older build is left next to the new ones.
forgetBuilt();
await mkdir(`${outdir}.build`, { recursive: true });
for (const entry of await readdir(outdir)) {
  if (entry !== 'web' && entry !== '.build') await rm(`${outdir}${entry}`, { recursive: true, force: true });
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  // The licenses of what the bundles contain are in dist/THIRD-PARTY-NOTICES.txt, complete (build-notices.js);
  // the comments esbuild would keep are only the few that say @license or @preserve.
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};
const cjs = {
  ...common,
  format: 'cjs',
  // import.meta does not exist in a CommonJS script: the bundle's own file URL stands in for it.
  inject: ['scripts/import-meta-url.js'],
  define: { 'import.meta.url': 'importMetaUrl' },
  // import() of the server bundle becomes require(): import() would load it through Node's ES module loader.
  supported: { 'dynamic-import': false },
};
// The CLI's import of the server stays out of app.cjs: require('./server.cjs') at run time.
const serverApart = {
  name: 'server-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/http\/server\.js$/ }, () => ({ path: './server.cjs', external: true }));
  },
};
// The MCP bundle is required at run time by the two that use it (see src/mcp/index.ts).
const mcpApart = {
  name: 'mcp-apart',
  setup(b) {
    b.onResolve({ filter: /(^|\/)mcp\/index\.js$/ }, () => ({ path: './mcp.cjs', external: true }));
  },
};
const results = await Promise.all([
  build({
    ...cjs,
    entryPoints: ['src/cli.ts'],
    outfile: `${outdir}app.cjs`,
    plugins: [serverApart, mcpApart, deferModules()],
  }),
  build({ ...cjs, entryPoints: ['src/http/server.ts'], outfile: `${outdir}server.cjs`, plugins: [mcpApart, deferModules()] }),
  build({ ...cjs, entryPoints: ['src/mcp/index.ts'], outfile: `${outdir}mcp.cjs`, plugins: [deferModules()] }),
  build({ ...cjs, entryPoints: ['src/entry.ts'], outfile: `${outdir}cli.js` }),
  build({ ...cjs, entryPoints: ['src/domain/sessions/scanWorker.ts'], outfile: `${outdir}scanWorker.js` }),
  // Each deferred package on its own, whole (scripts/deferred-modules.js).
  ...BUNDLED_APART.map((specifier) => build({
    ...cjs,
    stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: root, sourcefile: `${specifier} (bundled apart)` },
    outfile: `${outdir}${libFile(specifier)}`,
  })),
]);
// Every script in dist/ is CommonJS: Node's ES module loader took ~10 ms of every start (and of every scan
// worker's), where a CommonJS entry needs none of it.
await writeFile(`${outdir}package.json`, `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// The inputs that put bytes into a bundle (paths relative to the repository), whatever bundle it is.
const modules = new Set();
for (const { metafile } of results) {
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (bytesInOutput > 0) modules.add(input);
  }
}
await writeFile(`${outdir}.build/server-modules.json`, `${JSON.stringify([...modules].sort(), null, 1)}\n`);
