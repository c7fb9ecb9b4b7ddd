// Command-line flags: parsed strictly, so a typo is a usage error (exit 2), never a silent default.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from './closest.js';

export interface CliArgs {
  /** serve (no command word), `mcp` (MCP over stdio) or `export` (JSON to stdout or --output). */
  command: 'serve' | 'mcp' | 'export';
  /** export: include every file's content. */
  content: boolean;
  /** export: the file to write (null: stdout). */
  output: string | null;
  /** serve: answer from an export instead of a Claude Code home. */
  fromFile: string | null;
  port: number | null;
  host: string;
  claudeDir: string | null;
  allowHosts: string[];
  demo: boolean;
  expose: boolean;
  open: boolean;
  readOnly: boolean;
  staleDays: number | null;
  /** Bound of the plan versions kept under the cache dir, in bytes (null: the default, 200 MB). */
  historyLimitBytes: number | null;
  version: boolean;
  help: boolean;
}

export const USAGE = `Usage: plan-memory-viewer [options]
       plan-memory-viewer mcp [--claude-dir DIR]         Model Context Protocol server on stdio
       plan-memory-viewer export [--content] [-o FILE]   every plan's and memory entry's metadata as JSON

Browse and search the plans and auto memory Claude Code keeps in ~/.claude.

Options:
  -p, --port N        port to listen on (default 3000; when 3000 is busy the next free one is used)
  --host ADDR         address to bind (default 127.0.0.1); a non-loopback address also needs --expose
  --claude-dir DIR    Claude Code home (default $CLAUDE_CONFIG_DIR, else ~/.claude); one that is
                      named here or in CLAUDE_CONFIG_DIR must exist
  --open              open the viewer in your browser once it is ready
  --allow-host NAME   accept requests whose Host is NAME (repeatable), e.g. a name in /etc/hosts
  --demo              show the bundled demo home instead of your own (also shown when ~/.claude
                      does not exist and no other home is named)
  --expose            allow a non-loopback --host; every request then needs the printed access token
  --read-only         never write to memory files: fixes are shown as previews only
  --stale-days N      days without a change after which a memory whose session is gone is stale
                      (default 90)
  --history-limit SIZE  keep at most SIZE of plan versions the viewer observes, and at most SIZE of
                      compressed transcript copies (default 200MB each; e.g. 500MB, 2GB; 0 keeps
                      none), under the cache dir, oldest dropped first
  --from-file FILE    serve an export (plan-memory-viewer export) read-only instead of a home
  -v, --version       print the version and exit
  -h, --help          print this help and exit

Colours only in a terminal, and never with NO_COLOR set.
`;

/** What a usage error ends with instead of the whole usage: the error stays the one thing to read. */
export const HELP_HINT = 'Run plan-memory-viewer --help to see every flag.\n';

export class UsageError extends Error {}

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  'claude-dir': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  demo: { type: 'boolean' },
  expose: { type: 'boolean' },
  open: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'stale-days': { type: 'string' },
  'history-limit': { type: 'string' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  content: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  'from-file': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** parseArgs's own message, or for an unknown flag `unknown flag --prot; did you mean --port?`. */
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message;
  const flag = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (flag === undefined) return message;
  const near = flag.startsWith('--') ? closest(flag.slice(2), Object.keys(OPTIONS)) : null;
  return `unknown flag ${flag}${near === null ? '' : `; did you mean --${near}?`}`;
}

const COMMANDS = ['mcp', 'export'] as const;

export function parseCliArgs(argv: string[]): CliArgs {
  const command = (COMMANDS as readonly string[]).includes(argv[0] ?? '') ? argv[0] as CliArgs['command'] : 'serve';
  let parsed;
  try {
    parsed = parseArgs({
      args: command === 'serve' ? argv : argv.slice(1),
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    });
  } catch (error) {
    throw new UsageError(usageMessage(error));
  }
  const v = parsed.values;
  let port: number | null = null;
  if (v.port !== undefined) {
    if (!/^\d{1,5}$/.test(v.port) || Number(v.port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${v.port}"`);
    port = Number(v.port);
  }
  let staleDays: number | null = null;
  if (v['stale-days'] !== undefined) {
    if (!/^\d{1,5}$/.test(v['stale-days']) || Number(v['stale-days']) < 1) throw new UsageError(`--stale-days must be a number of days from 1, got "${v['stale-days']}"`);
    staleDays = Number(v['stale-days']);
  }
  if (v.host !== undefined && v.host.trim() === '') throw new UsageError('--host needs an address');
  if (v['claude-dir'] !== undefined && v['claude-dir'].trim() === '') throw new UsageError('--claude-dir needs a directory');
  const allowHosts = v['allow-host'] ?? [];
  for (const name of allowHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(name)) throw new UsageError(`--allow-host takes a host name, got "${name}"`);
  }
  let historyLimitBytes: number | null = null;
  if (v['history-limit'] !== undefined) {
    historyLimitBytes = parseSize(v['history-limit']);
    if (historyLimitBytes === null) throw new UsageError(`--history-limit takes a size like 200MB or 2GB, got "${v['history-limit']}"`);
  }
  if ((v.content !== undefined || v.output !== undefined) && command !== 'export') throw new UsageError('--content and --output belong to the export command');
  if (v.output !== undefined && v.output.trim() === '') throw new UsageError('--output needs a file');
  if (v['from-file'] !== undefined && (command !== 'serve' || v['from-file'].trim() === '')) throw new UsageError('--from-file needs a file, and serves it (no command word)');
  return {
    command,
    content: v.content ?? false,
    output: v.output ?? null,
    fromFile: v['from-file'] ?? null,
    port,
    host: v.host ?? '127.0.0.1',
    claudeDir: v['claude-dir'] ?? null,
    allowHosts: allowHosts.map((h) => h.toLowerCase()),
    demo: v.demo ?? false,
    expose: v.expose ?? false,
    open: v.open ?? false,
    readOnly: v['read-only'] ?? false,
    staleDays,
    historyLimitBytes,
    version: v.version ?? false,
    help: v.help ?? false,
  };
}

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** `200MB`, `2GB`, `512k`, `0` as bytes (binary units), or null when it is none of these. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return null;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** Loopback addresses: binding there exposes nothing to the network. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
