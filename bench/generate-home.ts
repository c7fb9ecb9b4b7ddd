// Deterministic synthetic Claude Code home for the benchmark: plans, session logs (with huge tool-output
// lines), subagent logs, auto memory, and the facts a correct server must report about them.
//
// Module: `generateHome(dir, params)`. CLI:
//   node --import tsx bench/generate-home.ts --out DIR --plans 3000 --projects 300 --log-bytes 2GB \
//     --huge-share 0.02 --memory-sources 150 --topics 10 --seed 1
//
// Formats follow ../shared/docs/claude-code-formats.md (Claude Code 2.1.329). Everything is derived from a
// seeded PRNG (no Math.random, no clock): the same params give the same facts and the same plan/memory bytes.
// Session logs differ between two output dirs only in the absolute `planFilePath` of plan-mode attachments.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

export const GENERATOR_VERSION = 2;

export interface HomeParams {
  /** Plan files in <home>/plans, subagent plans included. */
  plans: number;
  projects: number;
  /** Target total bytes of session logs (*.jsonl, main and subagent); the result overshoots by at most ~1 line/file. */
  logBytes: number;
  /** Probability that a log line is a huge tool-output line (0.25–4 MB), where the file's budget leaves room. */
  hugeShare: number;
  memorySources: number;
  /** Topic files per memory source (MEMORY.md not counted). */
  topics: number;
  seed: number;
  /** Share of (non-subagent) plans whose session logs are gone. Default 0.15, at least 16 when possible (the runner uses 11). */
  orphanShare?: number;
  /** Share of plans that are subagent plans `<slug>-agent-<id>.md`. Default 0.05. */
  agentShare?: number;
}

export interface SessionFact {
  /** Path relative to the home, POSIX separators. */
  file: string;
  sessionId: string;
  project: string;
  cwd: string;
  /** Slug carried by its lines, null when the session never entered plan mode. */
  slug: string | null;
  bytes: number;
  subagent: boolean;
}

export interface Facts {
  generator: number;
  params: Required<HomeParams>;
  counts: {
    plans: number;
    basePlans: number;
    agentPlans: number;
    linkedPlans: number;
    orphanPlans: number;
    projects: number;
    sessionFiles: number;
    subagentFiles: number;
    logBytes: number;
    logLines: number;
    hugeLines: number;
    hugeBytes: number;
    tornLines: number;
    planBytes: number;
    memorySources: number;
    memoryEntries: number;
    memoryBytes: number;
  };
  /** Every plan file name → what GET /api/plans must say. */
  plans: Record<string, { project: string | null; sessionId: string | null }>;
  /** A word in a handful of plans: the exact (sorted) filenames whose content contains it, case-insensitively. */
  rare: { word: string; filenames: string[] };
  /** A word in most plans: how many plans contain it. */
  common: { word: string; count: number };
  /** A word in a few memory files: the exact (sorted) entry ids whose raw content contains it. */
  memory: { word: string; ids: string[]; sources: number; entries: number };
  sessions: SessionFact[];
  /** Stems of orphan (unlinked) non-subagent plans that have no subagent plans: free for link tests. */
  orphanSlugs: string[];
}

// ---------------------------------------------------------------------------------------------------------
// PRNG and small helpers

/** mulberry32: tiny, fast, good enough for synthetic data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < 4; i++) this.next();
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform in [lo, hi]. */
  logUniform(lo: number, hi: number): number {
    return Math.round(lo * Math.exp(this.next() * Math.log(hi / lo)));
  }
  gaussian(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }
  uuid(): string {
    const variant = HEX[8 + Math.floor(this.next() * 4)];
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

const HEX = '0123456789abcdef';

/** Claude Code's project-folder encoding (names under 200 chars): every char outside [A-Za-z0-9] → '-'. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** "2GB", "100MB", "512KB", "123" (bytes). Binary units: 1 GB = 1024³ bytes. */
export function parseBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?\s*$/i.exec(text);
  if (!m) throw new Error(`not a size: ${text}`);
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.round(Number(m[1]) * mult);
}

export const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/;
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const FAKE_ROOT = '/home/bench/src';
const BASE_TIME = Date.UTC(2026, 10, 20, 12, 0, 0);
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

const ADJ = ['jolly', 'snug', 'brave', 'calm', 'eager', 'fuzzy', 'gentle', 'happy', 'keen', 'lively', 'merry', 'nimble',
  'proud', 'quiet', 'rapid', 'shiny', 'swift', 'tidy', 'vivid', 'witty', 'zesty', 'bold', 'cozy', 'dapper', 'fancy',
  'glad', 'humble', 'jaunty', 'lucky', 'mellow', 'noble', 'plucky', 'sunny', 'sleek', 'spry', 'sturdy', 'chipper',
  'breezy', 'crisp', 'daring'];
const GERUND = ['juggling', 'dancing', 'sailing', 'baking', 'coding', 'dreaming', 'floating', 'gliding', 'hopping',
  'humming', 'jumping', 'knitting', 'leaping', 'marching', 'painting', 'racing', 'roaming', 'singing', 'skating',
  'soaring', 'spinning', 'strolling', 'swimming', 'tinkering', 'wandering', 'whistling', 'wiggling', 'yodeling',
  'zooming', 'bouncing', 'crafting', 'drifting', 'fetching', 'giggling', 'hiking', 'mapping', 'munching', 'plotting',
  'puzzling', 'sketching'];
const NOUN = ['penguin', 'otter', 'falcon', 'badger', 'beaver', 'bison', 'cobra', 'coyote', 'crane', 'dolphin', 'eagle',
  'ferret', 'gecko', 'heron', 'ibis', 'jaguar', 'koala', 'lemur', 'lynx', 'marmot', 'moose', 'narwhal', 'ocelot',
  'panda', 'parrot', 'puffin', 'quokka', 'rabbit', 'raven', 'salmon', 'seal', 'sparrow', 'squirrel', 'tapir', 'tiger',
  'toucan', 'turtle', 'walrus', 'wombat', 'yak'];
const VERB = ['add', 'fix', 'refactor', 'migrate', 'speed-up', 'remove', 'document', 'test', 'split', 'rewrite',
  'harden', 'cache', 'index', 'paginate', 'debounce', 'stream', 'validate', 'retry', 'profile', 'upgrade'];
const THING = ['login', 'dark-mode', 'search', 'billing', 'upload', 'export', 'settings-page', 'api-client',
  'session-store', 'rate-limiter', 'webhooks', 'onboarding', 'audit-log', 'feature-flags', 'csv-import',
  'notifications', 'sidebar', 'router', 'build', 'ci-pipeline', 'docker-image', 'schema', 'cron-jobs', 'metrics',
  'error-pages', 'i18n', 'cli-parser', 'cache-layer', 'query-planner', 'file-watcher'];
const PROJ_A = ['acme', 'atlas', 'nova', 'orbit', 'pixel', 'quartz', 'river', 'summit', 'tundra', 'vertex', 'willow',
  'zephyr', 'aurora', 'beacon', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'iris', 'juniper', 'kepler',
  'lumen', 'meridian', 'nimbus', 'onyx', 'prism', 'quill', 'radiant'];
const PROJ_B = ['api', 'web', 'cli', 'infra', 'ml', 'docs', 'mobile', 'core', 'sdk', 'worker', 'gateway', 'admin',
  'dashboard', 'etl', 'auth'];
const PKG = ['core', 'ui', 'server', 'shared', 'utils', 'client'];
const WORDS = ['the', 'a', 'to', 'of', 'and', 'in', 'for', 'with', 'on', 'that', 'this', 'is', 'we', 'it', 'be', 'by',
  'from', 'when', 'then', 'each', 'every', 'so', 'not', 'only', 'once', 'before', 'after', 'into', 'without',
  'request', 'response', 'handler', 'module', 'function', 'component', 'state', 'store', 'query', 'index', 'cache',
  'file', 'path', 'folder', 'watcher', 'event', 'queue', 'worker', 'thread', 'buffer', 'stream', 'chunk', 'line',
  'token', 'session', 'user', 'config', 'setting', 'default', 'option', 'flag', 'schema', 'type', 'field', 'value',
  'error', 'warning', 'retry', 'timeout', 'limit', 'budget', 'latency', 'memory', 'disk', 'network', 'server',
  'client', 'browser', 'route', 'endpoint', 'test', 'tests', 'fixture', 'mock', 'assertion', 'coverage', 'build',
  'bundle', 'release', 'deploy', 'migration', 'database', 'table', 'column', 'row', 'record', 'update', 'insert',
  'delete', 'read', 'write', 'parse', 'render', 'validate', 'serialize', 'compute', 'measure', 'refactor', 'extract',
  'rename', 'move', 'split', 'merge', 'keep', 'drop', 'add', 'remove', 'replace', 'check', 'ensure', 'handle',
  'existing', 'new', 'old', 'current', 'small', 'large', 'fast', 'slow', 'safe', 'simple', 'clear', 'stable',
  'incremental', 'atomic', 'lazy', 'eager', 'shared', 'local', 'remote', 'pending', 'stale', 'fresh', 'invalid',
  'naïve', 'café', 'résumé', 'Zürich', 'über', 'señal', '日本語', 'données', 'größe'];
const LANGS = ['ts', 'typescript', 'bash', 'json', 'python', 'sql', 'diff', 'yaml', 'go', 'rust'];
const TOPIC_KINDS: { stem: string; type: 'user' | 'feedback' | 'project' | 'reference' }[] = [
  { stem: 'user-role', type: 'user' }, { stem: 'user-preferences', type: 'user' },
  { stem: 'feedback-testing', type: 'feedback' }, { stem: 'feedback-style', type: 'feedback' },
  { stem: 'feedback-commits', type: 'feedback' }, { stem: 'project-architecture', type: 'project' },
  { stem: 'project-deploy', type: 'project' }, { stem: 'project-conventions', type: 'project' },
  { stem: 'project-roadmap', type: 'project' }, { stem: 'reference-api', type: 'reference' },
  { stem: 'reference-runbook', type: 'reference' }, { stem: 'reference-glossary', type: 'reference' },
];

function sentence(rng: Rng, minWords = 6, maxWords = 18): string {
  const n = rng.int(minWords, maxWords);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function paragraph(rng: Rng, sentences = rng.int(2, 5)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(' ');
}

function titleCase(slugPart: string): string {
  return slugPart.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

function codeBlock(rng: Rng): string {
  const lang = rng.pick(LANGS);
  const lines: string[] = [];
  const n = rng.int(3, 14);
  for (let i = 0; i < n; i++) {
    const a = rng.pick(WORDS).replace(/[^a-z]/g, 'x');
    const b = rng.pick(WORDS).replace(/[^a-z]/g, 'y');
    switch (rng.int(0, 4)) {
      case 0: lines.push(`const ${a}${i} = await ${b}(${rng.int(0, 999)});`); break;
      case 1: lines.push(`  if (!${a}) throw new Error('${b} failed');`); break;
      case 2: lines.push(`# ${sentence(rng, 3, 8)}`); break;
      case 3: lines.push(`export function ${a}To${b.charAt(0).toUpperCase()}${b.slice(1)}(x: string): number {`); break;
      default: lines.push(`  return ${a}.${b}?.length ?? 0; // ${rng.pick(WORDS)}`);
    }
  }
  return '```' + lang + '\n' + lines.join('\n') + '\n```';
}

function planMarkdown(rng: Rng, title: string, targetBytes: number, cwd: string | null): string {
  const parts: string[] = [];
  const headingStyle = rng.next();
  if (headingStyle < 0.85) parts.push(`# Plan: ${title}`);
  else if (headingStyle < 0.95) parts.push(`# ${title}`);
  // else: no heading at all (the title falls back to the file name)
  parts.push('## Context\n\n' + paragraph(rng));
  const root = cwd ?? `${FAKE_ROOT}/project`;
  let step = 1;
  let size = parts.join('\n\n').length;
  while (size < targetBytes) {
    const r = rng.next();
    let block: string;
    if (r < 0.25) {
      const items: string[] = [];
      for (let i = 0; i < rng.int(2, 6); i++) {
        items.push(`${step++}. **${titleCase(rng.pick(VERB))} ${rng.pick(WORDS)}** — ${sentence(rng)} ` +
          `Files: \`${root}/src/${rng.pick(THING)}/${rng.pick(WORDS).replace(/[^a-z]/g, '')}.ts\``);
      }
      block = `## Step ${step}: ${titleCase(rng.pick(THING))}\n\n` + items.join('\n');
    } else if (r < 0.45) {
      block = `### ${titleCase(rng.pick(VERB))} the ${rng.pick(THING)}\n\n${paragraph(rng)}\n\n${codeBlock(rng)}`;
    } else if (r < 0.55) {
      const rows: string[] = ['| File | Change |', '|---|---|'];
      for (let i = 0; i < rng.int(2, 6); i++) rows.push(`| \`src/${rng.pick(THING)}.ts\` | ${sentence(rng, 3, 8)} |`);
      block = '## Files to change\n\n' + rows.join('\n');
    } else if (r < 0.65) {
      const items: string[] = [];
      for (let i = 0; i < rng.int(2, 5); i++) items.push(`- [${rng.chance(0.3) ? 'x' : ' '}] ${sentence(rng, 4, 10)}`);
      block = '## Verification\n\n' + items.join('\n');
    } else {
      block = paragraph(rng, rng.int(2, 7));
    }
    parts.push(block);
    size += block.length + 2;
  }
  return parts.join('\n\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------
// Filler pool for log lines: JSON-string-safe bytes, cut only at spaces so every slice is valid string content.

class FillerPool {
  readonly buf: Buffer;
  private readonly spaces: Uint32Array;

  constructor(rng: Rng, bytes: number) {
    const tokens: string[] = [];
    let size = 0;
    const special = [
      'foo();\\n', '\\n\\n', '\\t', '\\"quoted\\"', 'C:\\\\Users\\\\dev', 'naïve', 'café', '日本語のテキスト',
      '\u2028', 'emoji🚀', '\\u001b[31mred\\u001b[0m', '{\\"slug\\":\\"not-a-real-plan-otter\\"}',
      '\\"cwd\\":\\"/elsewhere\\"', '</script>', 'src/components/Button.tsx:42:7',
    ];
    while (size < bytes) {
      const t = rng.chance(0.04) ? rng.pick(special) : rng.chance(0.1) ? String(rng.int(0, 99999)) : rng.pick(WORDS);
      tokens.push(t);
      size += Buffer.byteLength(t) + 1;
    }
    this.buf = Buffer.from(tokens.join(' ') + ' ', 'utf8');
    let count = 0;
    for (let i = 0; i < this.buf.length; i++) if (this.buf[i] === 0x20) count++;
    this.spaces = new Uint32Array(count);
    let k = 0;
    for (let i = 0; i < this.buf.length; i++) if (this.buf[i] === 0x20) this.spaces[k++] = i;
  }

  /** About `len` bytes (never more than len + one token) of valid JSON string content, zero-copy. */
  slice(rng: Rng, len: number): Buffer {
    const maxStart = this.buf.length - len - 256;
    if (maxStart <= 0) throw new Error(`filler pool too small for ${len} bytes`);
    // first space index whose offset <= maxStart
    const hiIdx = this.upperBound(maxStart) - 1;
    const startIdx = Math.floor(rng.next() * Math.max(1, hiIdx));
    const start = (this.spaces[startIdx] as number) + 1;
    const endIdx = this.upperBound(start + len - 1);
    const end = this.spaces[Math.min(endIdx, this.spaces.length - 1)] as number;
    return this.buf.subarray(start, Math.max(start, end));
  }

  /** First index whose offset > value. */
  private upperBound(value: number): number {
    let lo = 0;
    let hi = this.spaces.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.spaces[mid] as number) <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Buffered synchronous file writer: copies small pieces into a staging buffer, writes big ones directly.

class FileWriter {
  private readonly fd: number;
  private readonly stage: Buffer;
  private used = 0;
  written = 0;

  constructor(file: string, stage: Buffer, flags = 'w') {
    this.fd = fs.openSync(file, flags);
    this.stage = stage;
  }

  write(piece: Buffer | string): void {
    const buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    this.written += buf.length;
    if (buf.length > this.stage.length - this.used) {
      this.flush();
      if (buf.length > this.stage.length / 4) {
        writeAll(this.fd, buf);
        return;
      }
    }
    buf.copy(this.stage, this.used);
    this.used += buf.length;
  }

  flush(): void {
    if (this.used > 0) writeAll(this.fd, this.stage.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

// ---------------------------------------------------------------------------------------------------------
// Session-log lines

export interface LineContext {
  cwd: string;
  sessionId: string;
  slug: string | null;
  agentId: string | null;
  time: number;
  parent: string | null;
}

const MB = 1024 * 1024;
export const HUGE_MIN = 256 * 1024;
export const HUGE_MAX = 4 * MB;

/** The common tail of conversation lines, in the order Claude Code writes it. */
function tail(rng: Rng, ctx: LineContext): string {
  const uuid = rng.uuid();
  ctx.parent = uuid;
  ctx.time += rng.int(50, 40_000);
  return `,"uuid":"${uuid}","timestamp":"${new Date(ctx.time).toISOString()}"` +
    (ctx.agentId ? `,"agentId":"${ctx.agentId}"` : '') +
    `,"userType":"external","entrypoint":"cli","cwd":${JSON.stringify(ctx.cwd)},"sessionId":"${ctx.sessionId}"` +
    `,"version":"2.1.329","gitBranch":"main"` + (ctx.slug ? `,"slug":"${ctx.slug}"` : '') + '}\n';
}

function head(ctx: LineContext): string {
  return `{"parentUuid":${ctx.parent ? `"${ctx.parent}"` : 'null'},"isSidechain":${ctx.agentId ? 'true' : 'false'}`;
}

export class LineFactory {
  hugeLines = 0;
  hugeBytes = 0;
  lines = 0;
  torn = 0;

  constructor(private readonly rng: Rng, private readonly pool: FillerPool, private readonly hugeShare: number) {}

  /** One conversation line (maybe huge, maybe torn) within `remaining` bytes of budget; returns bytes written. */
  conversation(w: FileWriter, ctx: LineContext, remaining: number): void {
    const rng = this.rng;
    this.lines++;
    if (remaining >= HUGE_MIN && rng.chance(this.hugeShare)) {
      const len = Math.min(rng.logUniform(HUGE_MIN, HUGE_MAX), remaining);
      const before = w.written;
      this.toolResult(w, ctx, len);
      this.hugeLines++;
      this.hugeBytes += w.written - before;
      return;
    }
    const r = rng.next();
    // Keep normal lines inside the file's budget so the total lands close to the requested volume.
    const cap = (n: number): number => Math.max(40, Math.min(n, remaining - 700));
    if (r < 0.15) {
      this.write(w, ctx, `${head(ctx)},"type":"user","message":{"role":"user","content":"`, cap(rng.logUniform(40, 3000)), '"}');
    } else if (r < 0.5) {
      this.write(w, ctx, `${head(ctx)},"message":{"id":"msg_01${rng.hex(22)}","type":"message","role":"assistant",` +
        `"model":"claude-opus-4-5","content":[{"type":"text","text":"`, cap(rng.logUniform(80, 6000)),
      `"}],"stop_reason":null,"usage":{"input_tokens":${rng.int(3, 9000)},"output_tokens":${rng.int(1, 4000)}}},` +
        `"requestId":"req_011${rng.hex(20)}","type":"assistant"`);
    } else if (r < 0.68) {
      const tool = rng.pick(['Read', 'Bash', 'Grep', 'Edit', 'Glob']);
      const input = tool === 'Bash' ? `{"command":"npm test -- ${rng.pick(THING)}","description":"run tests"}`
        : `{"file_path":${JSON.stringify(`${ctx.cwd}/src/${rng.pick(THING)}.ts`)}}`;
      w.write(`${head(ctx)},"message":{"id":"msg_01${rng.hex(22)}","type":"message","role":"assistant",` +
        `"model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_01${rng.hex(22)}","name":"${tool}",` +
        `"input":${input}}],"stop_reason":"tool_use"},"type":"assistant"` + tail(rng, ctx));
    } else if (r < 0.95) {
      this.toolResult(w, ctx, cap(rng.logUniform(300, 60_000)));
    } else {
      w.write(`${head(ctx)},"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse",` +
        `"hookName":"PostToolUse:Edit"},"toolUseID":"toolu_01${rng.hex(22)}","parentToolUseID":"toolu_01${rng.hex(22)}"` +
        tail(rng, ctx));
    }
  }

  private toolResult(w: FileWriter, ctx: LineContext, len: number): void {
    this.write(w, ctx, `${head(ctx)},"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01` +
      `${this.rng.hex(22)}","type":"tool_result","content":"`, len,
    '","is_error":false}]},"toolUseResult":{"stderr":"","interrupted":false,"isImage":false}');
  }

  private write(w: FileWriter, ctx: LineContext, prefix: string, len: number, suffix: string): void {
    const fill = this.pool.slice(this.rng, len);
    // A torn line: Claude Code died mid-write; the next line starts on a fresh line.
    if (len < HUGE_MIN && this.rng.chance(1 / 4000)) {
      this.torn++;
      w.write(prefix);
      w.write(fill.subarray(0, Math.floor(fill.length / 2)));
      w.write('\n');
      return;
    }
    w.write(prefix);
    w.write(fill);
    w.write(suffix + tail(this.rng, ctx));
  }

  planModeAttachment(w: FileWriter, ctx: LineContext, planFile: string): void {
    w.write(`{"type":"permission-mode","permissionMode":"plan","sessionId":"${ctx.sessionId}"}\n`);
    w.write(`${head(ctx)},"type":"attachment","attachment":{"type":"plan_mode","reminderType":"full",` +
      `"isSubAgent":false,"planFilePath":${JSON.stringify(planFile)},"planExists":false}` + tail(this.rng, ctx));
    this.lines += 2;
  }

  metadata(w: FileWriter, ctx: LineContext, kind: 'start' | 'resume' | 'end', title: string): void {
    const rng = this.rng;
    if (kind === 'start') {
      w.write(`{"type":"permission-mode","permissionMode":"default","sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"file-history-snapshot","messageId":"${rng.uuid()}","snapshot":{"messageId":"${rng.uuid()}",` +
        `"trackedFileBackups":{},"timestamp":"${new Date(ctx.time).toISOString()}"},"isSnapshotUpdate":false}\n`);
      this.lines += 2;
    } else if (kind === 'resume') {
      w.write(`{"type":"last-prompt","lastPrompt":${JSON.stringify(title.toLowerCase())},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"permission-mode","permissionMode":"default","sessionId":"${ctx.sessionId}"}\n`);
      this.lines += 2;
    } else {
      w.write(`{"type":"ai-title","aiTitle":${JSON.stringify(title)},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"last-prompt","lastPrompt":${JSON.stringify(title.toLowerCase())},"sessionId":"${ctx.sessionId}"}\n`);
      w.write(`{"type":"summary","summary":${JSON.stringify(title)},"leafUuid":"${ctx.parent ?? rng.uuid()}"}\n`);
      this.lines += 3;
    }
  }
}

/** Writes one session log of about `budget` bytes; the session enters plan mode (slug) part-way through. */
function writeLog(opts: {
  file: string; rng: Rng; lines: LineFactory; stage: Buffer; ctx: LineContext; budget: number;
  slug: string | null; planFile: string | null; title: string; subagent: boolean;
}): number {
  const { rng, lines, ctx, budget } = opts;
  const w = new FileWriter(opts.file, opts.stage);
  if (!opts.subagent) lines.metadata(w, ctx, 'start', opts.title);
  const enterAt = opts.slug ? Math.floor(budget * (0.05 + 0.8 * rng.next())) : Infinity;
  const resumeAt = rng.chance(0.1) ? Math.floor(budget * rng.next()) : Infinity;
  let resumed = false;
  let inPlan = false;
  if (opts.subagent && opts.slug) {
    ctx.slug = opts.slug;
    inPlan = true;
  }
  while (w.written < budget) {
    if (!inPlan && w.written >= enterAt && opts.slug && opts.planFile) {
      ctx.slug = opts.slug;
      lines.planModeAttachment(w, ctx, opts.planFile);
      inPlan = true;
    }
    if (!resumed && w.written >= resumeAt) {
      lines.metadata(w, ctx, 'resume', opts.title);
      resumed = true;
    }
    lines.conversation(w, ctx, budget - w.written);
  }
  if (!inPlan && opts.slug && opts.planFile) {
    ctx.slug = opts.slug;
    lines.planModeAttachment(w, ctx, opts.planFile);
    lines.conversation(w, ctx, 0);
  }
  if (!opts.subagent) lines.metadata(w, ctx, 'end', opts.title);
  w.close();
  return w.written;
}

// ---------------------------------------------------------------------------------------------------------
// The home

interface PlanSpec {
  stem: string;
  title: string;
  session: SessionSpec | null;
  parent: PlanSpec | null;
  agentId: string | null;
  children: number;
}

interface SessionSpec {
  sessionId: string;
  project: number;
  cwd: string;
  plan: PlanSpec | null;
  agentIds: string[];
  budget: number;
}

function withDefaults(p: HomeParams): Required<HomeParams> {
  return { orphanShare: 0.15, agentShare: 0.05, ...p };
}

export async function generateHome(dir: string, params: HomeParams): Promise<Facts> {
  const p = withDefaults(params);
  if (p.plans < 0 || p.projects < 1 || p.logBytes < 0 || p.memorySources > p.projects) {
    throw new Error('invalid params: need projects >= 1 and memorySources <= projects');
  }
  const rng = new Rng(p.seed);
  const home = path.resolve(dir);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(path.join(home, 'plans'), { recursive: true });
  fs.mkdirSync(path.join(home, 'projects'), { recursive: true });

  // Projects: unique encoded folder names; some names carry '.' or '_' (the encoding is lossy).
  const projectNames: string[] = [];
  const seenEnc = new Set<string>();
  for (let i = 0; projectNames.length < p.projects; i++) {
    let name = `${rng.pick(PROJ_A)}-${rng.pick(PROJ_B)}`;
    if (i >= PROJ_A.length * PROJ_B.length / 2) name += `-${i}`;
    const style = rng.next();
    if (style < 0.08) name = name.replace('-', '_');
    else if (style < 0.14) name = name.replace('-', '.');
    const enc = encodeProjectDir(name);
    if (seenEnc.has(enc)) continue;
    seenEnc.add(enc);
    projectNames.push(name);
  }
  const projectCwd = projectNames.map((n) => `${FAKE_ROOT}/${n}`);

  // Plans: base plans (slugs), some orphaned; subagent plans hang off base plans.
  const agentCount = Math.round(p.plans * p.agentShare);
  const baseCount = p.plans - agentCount;
  const stems = new Set<string>();
  const base: PlanSpec[] = [];
  while (base.length < baseCount) {
    let stem: string;
    let title: string;
    if (rng.chance(0.5)) {
      stem = `${rng.pick(ADJ)}-${rng.pick(GERUND)}-${rng.pick(NOUN)}`;
      title = `${titleCase(rng.pick(VERB))} ${titleCase(rng.pick(THING))}`;
    } else {
      const verb = rng.pick(VERB);
      const thing = rng.pick(THING);
      const extra = rng.chance(0.4) ? `-${rng.pick(['for', 'in', 'with'])}-${rng.pick(THING)}` : '';
      stem = `${verb}-the-${thing}${extra}-${rng.pick(ADJ)}-${rng.pick(NOUN)}`;
      title = `${titleCase(verb)} the ${titleCase(thing)}${extra ? titleCase(extra).replace(/^ /, ' ') : ''}`;
    }
    if (stems.has(stem) || stem.length > 70) continue;
    stems.add(stem);
    base.push({ stem, title, session: null, parent: null, agentId: null, children: 0 });
  }
  const orphanCount = Math.min(baseCount, Math.max(16, Math.round(baseCount * p.orphanShare)));
  const order = rng.shuffle(base.map((_, i) => i));
  const orphanSet = new Set(order.slice(0, orphanCount));

  // Sessions: one per linked plan, plus sessions that never entered plan mode (enough to cover every project).
  const linked = base.filter((_, i) => !orphanSet.has(i));
  const extra = Math.max(3, Math.round(linked.length * 0.3), p.projects - linked.length);
  const sessions: SessionSpec[] = [];
  for (const plan of linked) sessions.push({ sessionId: '', project: 0, cwd: '', plan, agentIds: [], budget: 0 });
  for (let i = 0; i < extra; i++) sessions.push({ sessionId: '', project: 0, cwd: '', plan: null, agentIds: [], budget: 0 });
  rng.shuffle(sessions);
  sessions.forEach((s, i) => {
    s.sessionId = rng.uuid();
    if (i < p.projects) {
      s.project = i; // every project gets a session at its root (its memory key and cwd are known)
      s.cwd = projectCwd[i] as string;
    } else {
      s.project = Math.floor(p.projects * rng.next() ** 2);
      s.cwd = projectCwd[s.project] as string;
      if (rng.chance(0.05)) s.cwd += `/packages/${rng.pick(PKG)}`; // launched in a subfolder
    }
    if (s.plan) s.plan.session = s;
    if (rng.chance(0.12)) for (let k = rng.int(1, 3); k > 0; k--) s.agentIds.push('a' + rng.hex(16));
  });

  // Subagent plans.
  const agents: PlanSpec[] = [];
  for (let attempts = 0; agents.length < agentCount && base.length > 0 && attempts < agentCount * 20; attempts++) {
    const parent = rng.pick(base);
    let agentId = 'a' + rng.hex(16);
    if (parent.session) {
      if (parent.session.agentIds.length === 0) parent.session.agentIds.push(agentId);
      agentId = rng.pick(parent.session.agentIds);
    }
    const stem = `${parent.stem}-agent-${agentId}`;
    if (stems.has(stem)) continue;
    stems.add(stem);
    parent.children++;
    agents.push({ stem, title: `${parent.title} (research)`, session: parent.session, parent, agentId, children: 0 });
  }

  // Rare and common words.
  const letters = 'bcdfghjklmnpqrstvwxz';
  let rareWord = 'zq';
  let memWord = 'mq';
  for (let i = 0; i < 7; i++) {
    rareWord += letters[rng.int(0, letters.length - 1)];
    memWord += letters[rng.int(0, letters.length - 1)];
  }
  const allPlans = [...base, ...agents];
  const rareTargets = new Set(rng.shuffle(allPlans.map((_, i) => i)).slice(0, Math.min(5, allPlans.length)));
  const commonWord = 'test';

  // Write plans.
  const factsPlans: Facts['plans'] = {};
  const rareHits: string[] = [];
  let commonHits = 0;
  let planBytes = 0;
  const plansDir = path.join(home, 'plans');
  allPlans.forEach((plan, i) => {
    const cwd = plan.session ? plan.session.cwd : null;
    let md = planMarkdown(rng, plan.title, rng.logUniform(1500, 24_000), cwd);
    if (rareTargets.has(i)) {
      const word = rng.chance(0.5) ? rareWord.toUpperCase() : rareWord;
      md += `\n## Notes\n\nRemember the ${word} flag when ${sentence(rng, 3, 8).toLowerCase()}\n`;
    }
    const filename = `${plan.stem}.md`;
    const file = path.join(plansDir, filename);
    fs.writeFileSync(file, md);
    const mtime = new Date(BASE_TIME - Math.floor(rng.next() * 45 * DAY));
    fs.utimesSync(file, mtime, mtime);
    planBytes += Buffer.byteLength(md);
    const lower = md.toLowerCase();
    if (lower.includes(rareWord)) rareHits.push(filename);
    if (lower.includes(commonWord)) commonHits++;
    factsPlans[filename] = plan.session
      ? { project: path.posix.basename(plan.session.cwd), sessionId: plan.session.sessionId }
      : { project: null, sessionId: null };
  });

  // Session logs.
  const pool = new FillerPool(rng, Math.min(10 * MB, Math.max(5 * MB, p.logBytes)));
  const lines = new LineFactory(rng, pool, p.hugeShare);
  const stage = Buffer.allocUnsafe(4 * MB);
  let weightSum = 0;
  const weights = sessions.map(() => {
    const w = Math.exp(2.2 * rng.gaussian());
    weightSum += w;
    return w;
  });
  sessions.forEach((s, i) => {
    s.budget = Math.floor((p.logBytes * (weights[i] as number)) / weightSum);
  });
  const sessionFacts: SessionFact[] = [];
  let logBytes = 0;
  sessions.forEach((s, i) => {
    const encDir = encodeProjectDir(s.cwd);
    const projDir = path.join(home, 'projects', encDir);
    fs.mkdirSync(projDir, { recursive: true });
    const slug = s.plan ? s.plan.stem : null;
    const planFile = slug ? path.join(plansDir, `${slug}.md`) : null;
    const title = s.plan ? s.plan.title : `${titleCase(rng.pick(VERB))} ${titleCase(rng.pick(THING))}`;
    const subShare = s.agentIds.length > 0 ? 0.4 : 0;
    const ctx: LineContext = {
      cwd: s.cwd, sessionId: s.sessionId, slug: null, agentId: null,
      time: BASE_TIME - (sessions.length - i) * 3_600_000, parent: null,
    };
    const rel = `projects/${encDir}/${s.sessionId}.jsonl`;
    const bytes = writeLog({
      file: path.join(home, rel), rng, lines, stage, ctx, budget: Math.floor(s.budget * (1 - subShare)),
      slug, planFile, title, subagent: false,
    });
    logBytes += bytes;
    const project = path.posix.basename(s.cwd);
    sessionFacts.push({ file: rel, sessionId: s.sessionId, project, cwd: s.cwd, slug, bytes, subagent: false });
    if (s.agentIds.length > 0) {
      const subDir = path.join(projDir, s.sessionId, 'subagents');
      fs.mkdirSync(subDir, { recursive: true });
      for (const agentId of s.agentIds) {
        const subRel = `projects/${encDir}/${s.sessionId}/subagents/agent-${agentId}.jsonl`;
        const subCtx: LineContext = { ...ctx, agentId, parent: null, slug: null };
        const subBytes = writeLog({
          file: path.join(home, subRel), rng, lines, stage, ctx: subCtx,
          budget: Math.floor((s.budget * subShare) / s.agentIds.length), slug, planFile, title, subagent: true,
        });
        logBytes += subBytes;
        sessionFacts.push({ file: subRel, sessionId: s.sessionId, project, cwd: s.cwd, slug, bytes: subBytes, subagent: true });
      }
    }
  });
  // Not sessions, but present in real project folders: must never be taken for one.
  if (sessions.length > 0) {
    const s = sessions[0] as SessionSpec;
    const projDir = path.join(home, 'projects', encodeProjectDir(s.cwd));
    fs.mkdirSync(path.join(projDir, 'tool-results'), { recursive: true });
    fs.writeFileSync(path.join(projDir, 'tool-results', 'toolu_01abc.txt'), 'large tool output kept aside\n');
    fs.writeFileSync(path.join(projDir, `${s.sessionId}.meta.json`), '{"kind":"meta"}\n');
  }

  // Memory.
  let memoryEntries = 0;
  let memoryBytes = 0;
  const memIds: string[] = [];
  const memTargetsShare = 0.03;
  for (let m = 0; m < p.memorySources; m++) {
    const key = encodeProjectDir(projectCwd[m] as string);
    const memDir = path.join(home, 'projects', key, 'memory');
    fs.mkdirSync(memDir, { recursive: true });
    const topics: { file: string; name: string; title: string; hook: string }[] = [];
    for (let t = 0; t < p.topics; t++) {
      const kind = TOPIC_KINDS[t % TOPIC_KINDS.length] as (typeof TOPIC_KINDS)[number];
      const suffix = t >= TOPIC_KINDS.length ? `-${Math.floor(t / TOPIC_KINDS.length) + 1}` : '';
      const nested = t === 3 && m % 4 === 1;
      const file = `${nested ? 'notes/' : ''}${kind.stem}${suffix}.md`;
      topics.push({ file, name: `${kind.stem}${suffix}`, title: titleCase(kind.stem + suffix), hook: sentence(rng, 4, 10) });
    }
    const sources = sessions.filter((s) => s.project === m);
    const originSession = sources.length > 0 ? (sources[0] as SessionSpec).sessionId : rng.uuid();
    topics.forEach((topic, t) => {
      const kind = TOPIC_KINDS[t % TOPIC_KINDS.length] as (typeof TOPIC_KINDS)[number];
      const links: string[] = [];
      for (let k = rng.int(0, 3); k > 0 && topics.length > 1; k--) {
        const other = rng.pick(topics);
        if (other !== topic) links.push(rng.chance(0.2) ? `[[${other.name}|${other.title}]]` : `[[${other.name}]]`);
      }
      const bodyLines: string[] = [`# ${topic.title}`, ''];
      for (let k = rng.int(3, 25); k > 0; k--) bodyLines.push(`- ${sentence(rng, 4, 14)}`);
      if (links.length > 0) bodyLines.push('', `Related: ${links.join(', ')}`);
      if (rng.chance(memTargetsShare) || (m === 0 && t === 0)) bodyLines.push('', `Codename ${memWord} applies here.`);
      const modified = new Date(BASE_TIME - Math.floor(rng.next() * 60 * DAY)).toISOString();
      const content = [
        '---',
        `name: ${topic.name}`,
        `description: ${JSON.stringify(topic.hook)}`,
        'metadata:',
        '  node_type: memory',
        `  type: ${kind.type}`,
        `  originSessionId: ${originSession}`,
        `  modified: ${modified}`,
        '---',
        '',
        ...bodyLines,
        '',
      ].join('\n');
      const filePath = path.join(memDir, topic.file);
      fs.mkdirSync(path.dirname(filePath), { recursive: true });
      fs.writeFileSync(filePath, content);
      memoryEntries++;
      memoryBytes += Buffer.byteLength(content);
      if (content.toLowerCase().includes(memWord)) memIds.push(`${key}/${topic.file}`);
    });
    const index: string[] = ['# Memory index', ''];
    topics.forEach((topic, t) => {
      if (t === topics.length - 1 && m % 3 === 2) return; // an orphan topic
      index.push(`- [${topic.title}](${topic.file}) — ${topic.hook}`);
    });
    if (m % 5 === 4) index.push('- [Old notes](old-notes.md) — removed long ago'); // a dangling link
    const indexText = index.join('\n') + '\n';
    fs.writeFileSync(path.join(memDir, 'MEMORY.md'), indexText);
    memoryEntries++;
    memoryBytes += Buffer.byteLength(indexText);
    if (indexText.toLowerCase().includes(memWord)) memIds.push(`${key}/MEMORY.md`);
  }

  const orphanSlugs = base.filter((b) => !b.session && b.children === 0).map((b) => b.stem).sort();
  const facts: Facts = {
    generator: GENERATOR_VERSION,
    params: p,
    counts: {
      plans: allPlans.length,
      basePlans: base.length,
      agentPlans: agents.length,
      linkedPlans: allPlans.filter((x) => x.session).length,
      orphanPlans: allPlans.filter((x) => !x.session).length,
      projects: p.projects,
      sessionFiles: sessionFacts.filter((s) => !s.subagent).length,
      subagentFiles: sessionFacts.filter((s) => s.subagent).length,
      logBytes,
      logLines: lines.lines,
      hugeLines: lines.hugeLines,
      hugeBytes: lines.hugeBytes,
      tornLines: lines.torn,
      planBytes,
      memorySources: p.memorySources,
      memoryEntries,
      memoryBytes,
    },
    plans: factsPlans,
    rare: { word: rareWord, filenames: rareHits.sort() },
    common: { word: commonWord, count: commonHits },
    memory: { word: memWord, ids: memIds.sort(), sources: p.memorySources, entries: memoryEntries },
    sessions: sessionFacts,
    orphanSlugs,
  };
  const factsFile = path.join(home, 'facts.json');
  fs.writeFileSync(factsFile + '.tmp', JSON.stringify(facts, null, 1));
  fs.renameSync(factsFile + '.tmp', factsFile);
  return facts;
}

/** Builds one extra log line (for the runner's append tests), in the same format. */
export function conversationLine(rng: Rng, ctx: LineContext, text: string): string {
  return `${head(ctx)},"type":"user","message":{"role":"user","content":${JSON.stringify(text)}}` + tail(rng, ctx);
}

/**
 * Writes `bytes` of realistic log lines (normal and one big tool output) for ctx to an open file, ending with a line
 * whose slug is `finalSlug`. Used by the runner to build the 200 MB log and the 1 MB appends.
 */
export function writeLogChunk(file: string, opts: {
  seed: number; ctx: LineContext; bytes: number; hugeShare: number; finalSlug: string | null; append: boolean;
}): number {
  const rng = new Rng(opts.seed);
  const pool = new FillerPool(rng, Math.max(2 * MB, Math.min(10 * MB, opts.bytes + MB)));
  const lines = new LineFactory(rng, pool, opts.hugeShare);
  const w = new FileWriter(file, Buffer.allocUnsafe(4 * MB), opts.append ? 'a' : 'w');
  const lastLineRoom = 2048;
  while (w.written < opts.bytes - lastLineRoom) lines.conversation(w, opts.ctx, opts.bytes - lastLineRoom - w.written);
  if (opts.finalSlug) opts.ctx.slug = opts.finalSlug;
  w.write(conversationLine(rng, opts.ctx, 'Now write the plan.'));
  w.close();
  return w.written;
}

// ---------------------------------------------------------------------------------------------------------
// CLI

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      plans: { type: 'string', default: '3000' },
      projects: { type: 'string', default: '300' },
      'log-bytes': { type: 'string', default: '2GB' },
      'huge-share': { type: 'string', default: '0.02' },
      'memory-sources': { type: 'string', default: '150' },
      topics: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      'orphan-share': { type: 'string' },
      'agent-share': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.out) {
    console.log('usage: node --import tsx bench/generate-home.ts --out DIR [--plans N] [--projects N] [--log-bytes 2GB]\n' +
      '  [--huge-share 0.02] [--memory-sources N] [--topics N] [--seed N] [--orphan-share 0.15] [--agent-share 0.05]');
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const params: HomeParams = {
    plans: Number(values.plans), projects: Number(values.projects), logBytes: parseBytes(values['log-bytes']),
    hugeShare: Number(values['huge-share']), memorySources: Number(values['memory-sources']),
    topics: Number(values.topics), seed: Number(values.seed),
  };
  if (values['orphan-share'] !== undefined) params.orphanShare = Number(values['orphan-share']);
  if (values['agent-share'] !== undefined) params.agentShare = Number(values['agent-share']);
  const t0 = performance.now();
  const facts = await generateHome(values.out, params);
  const secs = (performance.now() - t0) / 1000;
  console.log(`wrote ${values.out} in ${secs.toFixed(1)} s`);
  console.log(JSON.stringify(facts.counts, null, 2));
}

const invoked = process.argv[1] ? pathToFileURL(fs.realpathSync(process.argv[1])).href : '';
if (import.meta.url === invoked) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
