// `npm run dev`: the service from src/ under `tsx watch` (restarted whenever a file it loads changes)
// and Vite's dev server for the UI (hot reload: an edited component is swapped into the open page and
// keeps its state, through Prefresh), which proxies /api, the event stream included, to it
// (web/vite.config.ts). Arguments after `--` go to the service: `npm run dev -- --demo`.
// Ports: PMV_API_PORT (default 3001) for the service, PMV_UI_PORT (default 5173) for the page to open.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
process.env.PMV_API_PORT ??= '3001';
process.env.PMV_UI_PORT ??= '5173';

const tsx = fileURLToPath(import.meta.resolve('tsx/cli'));
// In its own process group: a Ctrl-C in the terminal reaches only this script, which stops the service
// with one signal. Signalled twice (by the terminal and by tsx relaying), the service would be killed
// before it is done shutting down, and tsx force-kills on a second signal too.
const service = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', 'src/cli.ts', '--port', process.env.PMV_API_PORT, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
const serviceExited = new Promise((resolve) => service.once('exit', (code) => resolve(code ?? 1)));
process.once('exit', () => {
  if (service.exitCode === null) service.kill('SIGTERM');
});

const ui = await createServer({ configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)) });
await ui.listen();
process.stdout.write(`\nDev UI (hot reload, /api proxied to 127.0.0.1:${process.env.PMV_API_PORT}):\n`);
ui.printUrls();

let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  if (service.exitCode === null) service.kill('SIGTERM');
  await Promise.all([serviceExited, ui.close()]);
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// tsx watch keeps running when the service crashes (it restarts on the next change); it exits only on
// a usage error or when it is stopped.
void serviceExited.then((code) => stop(code));
