// Builds the React UI (web/) into dist/web with Vite, programmatically, so `npm run build:web`
// needs no Vite CLI flags. The server serves dist/web/index.html at `/` and dist/web/assets/*.
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const webRoot = fileURLToPath(new URL('../web/', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/web/', import.meta.url));

await build({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  logLevel: process.env.BUILD_WEB_QUIET ? 'warn' : 'info',
});

// The page is served with `script-src 'self'; style-src 'self'`: fail the build if Vite ever
// inlines a script or a style block into index.html.
const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html) || /<style[\s>]/i.test(html) || /\sstyle=/i.test(html)) {
  console.error('dist/web/index.html contains inline script or style; the CSP would block it.');
  process.exit(1);
}
