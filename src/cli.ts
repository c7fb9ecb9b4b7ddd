#!/usr/bin/env node
// plan-memory-viewer: resolve the home, scan it, serve the API and UI on loopback, print the banner.
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isLoopbackHost, parseCliArgs, UsageError, USAGE, type CliArgs } from './config/args.js';
import { isDirectory, requestedClaudeDir, resolveClaudeDir } from './config/claudeDir.js';
import { cacheDir } from './config/cacheDir.js';
import { materializeDemo } from './config/demo.js';
import { PACKAGE_ROOT, PACKAGE_VERSION as VERSION } from './config/packageRoot.js';
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

async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`plan-memory-viewer: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) return void process.stdout.write(USAGE), 0;
  if (args.version) return void process.stdout.write(`${VERSION}\n`), 0;
  const exposed = !isLoopbackHost(args.host);
  if (exposed && !args.expose) {
    process.stderr.write(`plan-memory-viewer: --host ${args.host} is not a loopback address; add --expose to serve your plans to the network\n\n${USAGE}`);
    return 2;
  }

  // Loaded only now: --help, --version and usage errors answer without loading the server stack.
  const { Viewer } = await import('./viewer.js');
  const trace = process.env.PMV_TRACE ? (phase: string): void => {
    const { user, system } = process.cpuUsage();
    process.stderr.write(`plan-memory-viewer: ${Math.round(performance.now())} ms (cpu ${Math.round((user + system) / 1000)} ms) ${phase}\n`);
  } : undefined;

  const requested = requestedClaudeDir(args.claudeDir, process.env, process.cwd());
  let claudeDir: string;
  let demoReason: string | null = null;
  let demoRoot: string | null = null;
  if (args.demo || !(await isDirectory(requested))) {
    demoReason = args.demo ? '--demo was given' : `${requested} does not exist`;
    claudeDir = await materializeDemo();
    demoRoot = path.dirname(claudeDir);
  } else {
    claudeDir = await resolveClaudeDir(requested);
  }

  // The scan starts first: its workers read the logs while this thread loads and builds the server.
  // The demo is a fresh copy every start: caching its index would only leave files behind.
  const viewer = await Viewer.create({
    claudeDir, homeDir: os.homedir(), logger, cacheDir: demoRoot ? null : cacheDir(), deferWatch: true, trace,
  });
  const loading = viewer.load();
  loading.catch(() => undefined);
  const { buildServer } = await import('./http/server.js');
  trace?.('server code loaded');
  const token = exposed ? randomBytes(18).toString('base64url') : null;
  const app = await buildServer({
    viewer,
    // Loaded on first use: child_process (and what it loads) is not worth a start for a rare action.
    opener: async (file) => (await import('./platform/opener.js')).openWithSystem(file),
    allowedHosts: exposed ? [...args.allowHosts, args.host.toLowerCase()] : args.allowHosts,
    webDir: path.join(PACKAGE_ROOT, 'dist', 'web'),
    accessToken: token,
    demo: demoReason !== null,
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
    if (demoRoot) await rm(demoRoot, { recursive: true, force: true });
    return 1;
  }

  trace?.('listening');
  try {
    await loading;
  } catch (error) {
    // Requests held for the scan would wait forever: drop their connections, then fail as before.
    app.server.closeAllConnections();
    await app.close().catch(() => undefined);
    await viewer.close().catch(() => undefined);
    if (demoRoot) await rm(demoRoot, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  trace?.('loaded');
  // Installed before anything is printed: whoever reads the banner may signal at once (a test did, and
  // on a loaded machine the signal came between the banner and a later install).
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await app.close().catch(() => undefined);
    await viewer.close().catch(() => undefined);
    if (demoRoot) await rm(demoRoot, { recursive: true, force: true }).catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  // The first requests (the browser opening the UI) are answered before background work starts: the
  // watchers' crawl, search preparation and the memory scan for this banner share this thread. Changes
  // made meanwhile are caught by the catch-up pass that follows the crawl.
  await new Promise((resolve) => setTimeout(resolve, FIRST_ANSWERS_MS));
  void viewer.startWatching();
  const memory = await viewer.memory.list();
  const projects = viewer.plans.projects();
  const hostForUrl = args.host.includes(':') && !args.host.startsWith('[') ? `[${args.host}]` : args.host;
  const url = `http://${hostForUrl}:${port}/${token ? `?token=${token}` : ''}`;
  const lines = [
    `Plan & Memory Viewer ${VERSION}`,
    `  URL:          ${url}`,
    `  Claude dir:   ${claudeDir}${demoReason ? `  (DEMO DATA: ${demoReason}; pass --claude-dir to read your own)` : ''}`,
    `  Plans:        ${viewer.plans.count}`,
    `  Projects:     ${projects.length}`,
    `  Memory:       ${memory.sources.length} sources, ${memory.entries.length} files`,
  ];
  if (args.port === null && port !== 3000) lines.push(`  Note:         port 3000 was busy, using ${port}`);
  if (token) lines.push(`  WARNING:      listening on ${args.host}: anyone who can reach it and has the token reads your plans`);
  process.stdout.write(`${lines.join('\n')}\n`);

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
