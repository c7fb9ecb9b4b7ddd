// The runner's command line: the options, the home presets and their parsing (with the help text).

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { HomeParams } from './facts.js';
import { parseBytes } from './generate-home.js';
import { MB } from './measure.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const PRESETS: Record<string, HomeParams> = {
  full: { plans: 3000, projects: 300, logBytes: 2 * 1024 * MB, hugeShare: 0.02, memorySources: 150, topics: 10, seed: 1 },
  small: { plans: 300, projects: 30, logBytes: 100 * MB, hugeShare: 0.02, memorySources: 15, topics: 10, seed: 1 },
};

/** The phases that can run alone (`--only`). */
export const SOLO_PHASES = ['hostile', 'history', 'first-screen', 'find', 'mcp'] as const;
export type Phase = (typeof SOLO_PHASES)[number];

export interface Options {
  server: string;
  home: string | null;
  params: HomeParams;
  preset: string;
  out: string;
  requests: number;
  warmup: number;
  duration: number;
  connections: number;
  bigLogBytes: number;
  readyTimeoutMs: number;
  pollGapMs: number;
  rounds: number;
  starts: number;
  cpuRounds: number;
  cpuWindowS: number;
  appendWarmup: number;
  appendRounds: number;
  /** Cold page loads of the first-screen phase. */
  pageLoads: number;
  /** Run only this phase (with one server start before it), or every phase (null). */
  only: Phase | null;
}

export function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'node dist/cli.js' },
      home: { type: 'string' },
      preset: { type: 'string', default: 'full' },
      out: { type: 'string' },
      plans: { type: 'string' },
      projects: { type: 'string' },
      'log-bytes': { type: 'string' },
      'huge-share': { type: 'string' },
      'memory-sources': { type: 'string' },
      topics: { type: 'string' },
      seed: { type: 'string' },
      requests: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '20' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
      'big-log': { type: 'string', default: '200MB' },
      'ready-timeout': { type: 'string', default: '300' },
      'poll-gap-ms': { type: 'string', default: '0' },
      rounds: { type: 'string', default: '3' },
      starts: { type: 'string', default: '5' },
      'cpu-rounds': { type: 'string', default: '5' },
      'cpu-window': { type: 'string', default: '11' },
      'append-warmup': { type: 'string', default: '3' },
      'append-rounds': { type: 'string', default: '30' },
      'page-loads': { type: 'string', default: '7' },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(`usage: node --import tsx bench/run.ts [options]
  --server CMD         server command; gets --port --host --claude-dir appended (default "node dist/cli.js", run in the repo)
  --preset small|full  home size (full: 3000 plans, 300 projects, 2 GB logs, 150 memory sources x 10 topics)
  --home DIR           use/generate this home (default: a cache dir under ${os.tmpdir()} keyed by the params)
  --plans --projects --log-bytes --huge-share --memory-sources --topics --seed   override preset params
  --out FILE           results JSON (default bench/results/<timestamp>.json)
  --requests N --warmup N   sequential requests per endpoint (200, 20)
  --duration S --connections N   load on /api/plans from bench/load.ts (10 s, 16 keep-alive connections)
  --big-log SIZE       log used for the 1 MB append test (200MB)
  --ready-timeout S    give up waiting for a correct plan list (300)
  --poll-gap-ms MS     pause between readiness polls (0: as fast as possible)
  --rounds N           repetitions of each freshness measure (3)
  --starts N           cold starts and warm restarts measured; the median counts (5)
  --cpu-rounds N       rounds of each kind (1 MB, 1 line, control) for the append CPU cost (5)
  --cpu-window S       whole seconds per CPU round; must hold the server's deferred work (11: it saves 10 s after a change)
  --append-warmup N    appends of each kind (1 MB, 1 line) before the append CPU is measured, on the server and in process (3)
  --append-rounds N    measured appends of each kind for the in-process append cost (30)
  --page-loads N       cold page loads in Chromium for the first screen (7; after one warm-up load)
  --only hostile       only the hostile-files phase (huge plans and memory files saved and read), after one start
  --only history       only the plan-history phase: --rounds cold starts and warm restarts to a built history,
                       every plan's history checked, and the latency of each plan's history and of a version
  --only find          only the ranked search, in process: index build, size, one- and two-word query times
  --only first-screen  only the first-screen phase (navigation to the first plan rows on screen, /usr/bin/chromium)
  --only mcp           only a fresh \`plan-memory-viewer mcp\`'s first complete search, with no cache and with a warm one`);
    process.exit(0);
  }
  const preset = PRESETS[values.preset];
  if (!preset) throw new Error(`unknown preset ${values.preset} (small|full)`);
  const params: HomeParams = { ...preset };
  if (values.plans) params.plans = Number(values.plans);
  if (values.projects) params.projects = Number(values.projects);
  if (values['log-bytes']) params.logBytes = parseBytes(values['log-bytes']);
  if (values['huge-share']) params.hugeShare = Number(values['huge-share']);
  if (values['memory-sources']) params.memorySources = Number(values['memory-sources']);
  if (values.topics) params.topics = Number(values.topics);
  if (values.seed) params.seed = Number(values.seed);
  const whole = (value: string, name: string, min = 1): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} takes a whole number, at least ${min}`);
    return n;
  };
  const cpuWindowS = Number(values['cpu-window']);
  if (!Number.isInteger(cpuWindowS) || cpuWindowS < 2) throw new Error('--cpu-window takes whole seconds, at least 2');
  const only = values.only as Phase | undefined;
  if (only !== undefined && !SOLO_PHASES.includes(only)) throw new Error(`--only takes ${SOLO_PHASES.join(' or ')}, not ${only}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    server: values.server,
    home: values.home ? path.resolve(values.home) : null,
    params,
    preset: values.preset,
    out: path.resolve(values.out ?? path.join(REPO, 'bench', 'results', `${stamp}.json`)),
    requests: Number(values.requests),
    warmup: Number(values.warmup),
    duration: Number(values.duration),
    connections: Number(values.connections),
    bigLogBytes: parseBytes(values['big-log']),
    readyTimeoutMs: Number(values['ready-timeout']) * 1000,
    pollGapMs: Number(values['poll-gap-ms']),
    rounds: Number(values.rounds),
    starts: whole(values.starts, '--starts'),
    cpuRounds: Number(values['cpu-rounds']),
    cpuWindowS,
    appendWarmup: whole(values['append-warmup'], '--append-warmup', 0),
    appendRounds: whole(values['append-rounds'], '--append-rounds'),
    pageLoads: whole(values['page-loads'], '--page-loads'),
    only: only ?? null,
  };
}
