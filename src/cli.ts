#!/usr/bin/env node
// plan-memory-viewer: resolve the home, scan it, serve the API and UI on loopback, say where and when
// it is ready.
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startupTrace } from './cli/trace.js';
import type { FastifyInstance } from 'fastify';
import { HELP_HINT, isLoopbackHost, parseCliArgs, UsageError, USAGE, type CliArgs } from './config/args.js';
import { chooseHome } from './config/claudeDir.js';
import { cacheDir, careDir } from './config/cacheDir.js';
import { demoRoot, materializeDemo } from './config/demo.js';
import { PACKAGE_ROOT, PACKAGE_VERSION as VERSION } from './config/packageRoot.js';
import { foundLines, listeningLines, readyLine } from './cli/banner.js';
import { ScanProgress } from './cli/progress.js';
import { Shutdown } from './cli/shutdown.js';
import { Terminal } from './cli/terminal.js';
import type { Logger } from './domain/types.js';

const PORT_FALLBACK_TRIES = 20;
const FIRST_ANSWERS_MS = 150;

const logger: Logger = {
  warn: (message) => process.stderr.write(`plan-memory-viewer: ${message}\n`),
};

async function listen(app: FastifyInstance, host: string, args: CliArgs): Promise<number> {
  if (args.port !== null) {
    await app.listen({ port: args.port, host });
    return (app.server.address() as { port: number }).port;
  }
  for (let port = 3000; port < 3000 + PORT_FALLBACK_TRIES; port++) {
    try {
      await app.listen({ port, host });
      return port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw Object.assign(new Error(`ports 3000-${3000 + PORT_FALLBACK_TRIES - 1} are all in use`), { code: 'EADDRINUSE' });
}

/** Opens `url` with the platform's opener (an argv array, no shell: see platform/opener.ts). */
async function openBrowser(url: string): Promise<void> {
  const { openWithSystem, openerCommand } = await import('./platform/opener.js');
  if (!(await openWithSystem(url))) {
    logger.warn(`could not open a browser (${openerCommand(process.platform)} failed); open ${url} yourself`);
  }
}

async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`plan-memory-viewer: ${error.message}\n${HELP_HINT}`);
    return 2;
  }
  if (args.help) return void process.stdout.write(USAGE), 0;
  if (args.version) return void process.stdout.write(`${VERSION}\n`), 0;
  if (args.command !== 'serve') return (await import('./cli/commands.js')).runCommand(args, logger);
  const exposed = !isLoopbackHost(args.host);
  if (exposed && !args.expose) {
    process.stderr.write(`plan-memory-viewer: --host ${args.host} is not a loopback address; add --expose to serve your plans to the network\n${HELP_HINT}`);
    return 2;
  }
  // From here on a signal stops the viewer cleanly, whatever it is doing.
  const shutdown = new Shutdown();

  const fromFile = args.fromFile === null ? null : await import('./export/fromFile.js');
  if (fromFile) shutdown.demoAt(fromFile.exportRoot());
  const home = fromFile ? await fromFile.homeFromExport(args.fromFile!, fromFile.exportRoot())
    : await chooseHome({ flag: args.claudeDir, demo: args.demo, env: process.env, cwd: process.cwd() });
  if (home.kind === 'error') {
    process.stderr.write(`plan-memory-viewer: ${home.message}\n`);
    return 1;
  }
  // Loaded only now: --help, --version, usage errors and a wrong home answer without loading the server stack.
  const { Viewer } = await import('./viewer.js');
  const trace = startupTrace();

  let claudeDir: string;
  if (home.kind === 'demo') {
    const root = demoRoot();
    shutdown.demoAt(root);
    claudeDir = await materializeDemo(undefined, root);
  } else {
    claudeDir = home.dir;
  }

  // The scan starts first: its workers read the logs while this thread loads and builds the server.
  // The demo is a fresh copy every start: caching its index would only leave files behind.
  const viewer = await Viewer.create({
    claudeDir, homeDir: os.homedir(), logger, cacheDir: home.kind === 'demo' || fromFile ? null : cacheDir(), deferWatch: true, trace,
    // The demo's fixes are undone into its own copy, removed with it; an export is served read-only.
    careDir: home.kind === 'demo' || fromFile ? path.join(path.dirname(claudeDir), 'memory-care') : careDir(),
    readOnly: args.readOnly || fromFile !== null,
    staleDays: args.staleDays ?? undefined,
    historyLimitBytes: args.historyLimitBytes ?? undefined,
  });
  // Before the first scan is done there is nothing to save (the caches are written after it), and closing
  // the scan's workers under it would only make it fall back to reading on this thread: exiting ends it.
  shutdown.add(async () => viewer.isLoaded && viewer.close());
  const loading = viewer.load();
  loading.catch(() => undefined);
  const { buildServer, prepareValidators } = await import('./http/server.js');
  trace?.('server code loaded');
  const token = exposed ? randomBytes(18).toString('base64url') : null;
  const app = await buildServer({
    viewer,
    // Loaded on first use: child_process (and what it loads) is not worth a start for a rare action.
    opener: async (file) => (await import('./platform/opener.js')).openWithSystem(file),
    allowedHosts: exposed ? [...args.allowHosts, args.host.toLowerCase()] : args.allowHosts,
    webDir: path.join(PACKAGE_ROOT, 'dist', 'web'),
    accessToken: token,
    demo: home.kind === 'demo',
  });
  shutdown.add(async () => {
    // Requests held for a scan that will not finish would keep the server from closing.
    if (!viewer.isLoaded) app.server.closeAllConnections();
    await app.close();
  });

  trace?.('server built');
  // Listening before the scan is done: requests wait for it in the server (see buildServer), so a client
  // that connects early gets its answer the moment it is complete, and a port in use is reported at once.
  let port: number;
  try {
    port = await listen(app, args.host, args);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${args.port ?? 3000} is already in use`
      : code === 'EADDRNOTAVAIL' ? `address ${args.host} is not available on this machine`
      : (error as Error).message;
    process.stderr.write(`plan-memory-viewer: cannot listen: ${reason}\n`);
    await loading.catch(() => undefined);
    await viewer.close();
    return 1;
  }

  trace?.('listening');
  const terminal = new Terminal();
  const hostForUrl = args.host.includes(':') && !args.host.startsWith('[') ? `[${args.host}]` : args.host;
  const url = `http://${hostForUrl}:${port}/${token ? `?token=${token}` : ''}`;
  // Said at once: the URL works now (an early request is answered when the scan is done).
  terminal.lines(listeningLines(terminal.style, {
    version: VERSION,
    url,
    claudeDir,
    demoReason: home.kind === 'demo' ? home.reason : null,
    unlikelyHome: home.kind === 'own' && !home.looksLikeHome,
    fallbackPort: args.port === null && port !== 3000 ? port : null,
    exposedOn: token ? args.host : null,
  }));
  const progress = new ScanProgress(terminal, () => {
    const stats = viewer.sessions.scanStats();
    return { logs: stats.trackedFiles, bytes: stats.bytesRead, plans: viewer.plans.count };
  });
  if (!viewer.isLoaded) progress.start();
  try {
    await loading;
  } catch (error) {
    progress.stop();
    if (shutdown.started) return -1;
    // Requests held for the scan would wait forever: drop their connections, then fail as before.
    app.server.closeAllConnections();
    await app.close().catch(() => undefined);
    await viewer.close().catch(() => undefined);
    throw error;
  }
  progress.stop();
  if (shutdown.started) return -1;
  trace?.('loaded');
  terminal.lines([readyLine(terminal.style, performance.now())]);
  if (args.open) void openBrowser(url);

  // The first requests (the browser opening the UI) are answered before background work starts: the
  // watchers' crawl, search preparation and the memory scan for the counts below share this thread.
  // Changes made meanwhile are caught by the catch-up pass that follows the crawl.
  await new Promise((resolve) => setTimeout(resolve, FIRST_ANSWERS_MS));
  void viewer.startWatching();
  void prepareValidators(app);
  const memory = await viewer.memory.list();
  if (shutdown.started) return -1;
  terminal.lines(foundLines(terminal.style, {
    plans: viewer.plans.count,
    projects: viewer.plans.projects().length,
    memorySources: memory.sources.length,
    memoryTopics: memory.entries.filter((entry) => !entry.isIndex).length,
  }));
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`plan-memory-viewer: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
