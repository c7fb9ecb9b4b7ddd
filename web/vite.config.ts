// Vite build of the UI into dist/web. The server serves index.html at `/` and the hashed files
// under /assets/ with a strict CSP, so nothing may be inlined: no inline script, no data: fonts,
// no module-preload polyfill.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: true,
    sourcemap: false,
    target: 'es2022',
    // mermaid is loaded on demand and is large; its chunks never load unless a plan has a diagram.
    chunkSizeWarningLimit: 4096,
  },
});
