// `npm run dev`'s UI half for tests: Vite's dev server from web/vite.config.ts on a free loopback port,
// proxying /api to a running service, configured through the environment as scripts/dev.js configures it.
import path from 'node:path';
import type { InlineConfig, ViteDevServer } from 'vite';
import { freePort } from '../../e2e/helpers/server.js';

export const VITE_CONFIG = path.resolve(import.meta.dirname, '../../web/vite.config.ts');

/** The dev server, listening; `overrides` go to Vite's createServer() on top of the config file. */
export async function startDevServer(apiPort: number, overrides: InlineConfig = {}): Promise<{ ui: ViteDevServer; port: number }> {
  const port = await freePort();
  // Read by web/vite.config.ts when the dev server loads it, as scripts/dev.js sets them.
  process.env.PMV_API_PORT = String(apiPort);
  process.env.PMV_UI_PORT = String(port);
  const { createServer } = await import('vite');
  const ui = await createServer({ configFile: VITE_CONFIG, logLevel: 'silent', ...overrides });
  await ui.listen();
  return { ui, port };
}
