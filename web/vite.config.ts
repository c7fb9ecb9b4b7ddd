// Vite build of the UI into dist/web. The server serves index.html at `/` and the hashed files
// under /assets/ with a strict CSP, so nothing may be inlined: no inline script, no data: fonts,
// no module-preload polyfill.
// Also the dev server of `npm run dev` (scripts/dev.js): the UI, hot-reloaded on a change (an edited
// component is swapped in place and keeps its state, stylesheets too), /api proxied to the service
// running from src/.
import { defineConfig, type PluginOption, type ProxyOptions } from 'vite';

const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);

const apiPort = Number(process.env.PMV_API_PORT ?? 3001);
const uiPort = Number(process.env.PMV_UI_PORT ?? 5173);
const apiOrigin = `http://127.0.0.1:${apiPort}`;
const uiOrigins = [`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`, `http://[::1]:${uiPort}`];

/**
 * The service's perimeter (src/http/guards.ts) holds for proxied requests too. changeOrigin gives them
 * a Host the service accepts (Vite's own allowedHosts check has already refused foreign Hosts). The
 * browser's Sec-Fetch-Site (same-origin for the dev page) passes through untouched; an Origin naming
 * this dev server is our own page, so it is presented as the service's own origin, and any other
 * Origin (another site) reaches the service as it is and is refused there.
 */
const api: ProxyOptions = {
  target: apiOrigin,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', (proxyReq) => {
      const origin = proxyReq.getHeader('origin');
      if (typeof origin === 'string' && uiOrigins.includes(origin)) proxyReq.setHeader('origin', apiOrigin);
    });
  },
};

/**
 * The UI is written against React's API and types, and runs on Preact through preact/compat: react-dom
 * was 202 of the first screen's 316 KB, and evaluating it a large part of the page's start. Exact matches,
 * so `react-dom` does not also catch `react-dom/client`. The JSX runtime comes from compat, not from
 * preact itself, so that compat (which maps React's prop names and events onto the DOM's) is loaded
 * before any element is created (the two props it leaves unmapped: src/preactProps.ts). Dependencies
 * (@tanstack/react-virtual) go through the same aliases.
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * Hot reload, for the dev server only: Prefresh, Preact's Fast Refresh (@vitejs/plugin-react's only
 * updates React's renderer: under Preact an edit would be accepted and never shown). An edited
 * component module is swapped in place and its components keep their state; an edit elsewhere (a .ts
 * module it does not refresh) goes up to the modules importing it, up to a full reload.
 * (A .tsx module's other exports are swapped too: their importers keep the old ones until a reload.)
 * @prefresh/vite rather than @preact/preset-vite: the preset sets aliases and a JSX source of its own, in
 * builds too (preact/jsx-runtime, where ours is compat's), and adds devtools and prerendering.
 * @prefresh/vite 2.x: its refresh registrations come from a Babel pass over the module (Vite's oxc still
 * compiles the JSX with the options below); the 3.x and 4.x lines pull a package whose engines exclude
 * Node 20, and `npm ci` warned about it. Only .tsx modules go through that pass: it takes capitalized
 * classes for components (ApiError in api/client.ts, VersionTexts in history/useHistory.ts), and an edit
 * of such a module was then swapped into it alone, its importers still running the old code; a .ts
 * module's edit goes up to its importers instead. Never part of a build (a build does not even load it).
 */
async function devPlugins(command: 'build' | 'serve'): Promise<PluginOption[]> {
  if (command !== 'serve') return [];
  const { default: prefresh } = await import('@prefresh/vite');
  return [prefresh({ include: /\.tsx$/ })];
}

export default defineConfig(({ command }) => ({
  root: webRoot,
  base: '/',
  resolve: { alias: preactCompat },
  // JSX compiles to React's automatic runtime (react/jsx-runtime, aliased above), as web/tsconfig.json
  // type-checks it.
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  plugins: [devPlugins(command)],
  publicDir: false,
  server: { host: '127.0.0.1', port: uiPort, strictPort: true, proxy: { '/api': api } },
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
}));
