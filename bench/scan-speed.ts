// Micro-benchmark of the session-log scanner: times a full SessionIndex.refresh() over a projects dir
// (several fresh indexes, best run reported) and, optionally, LineScanner.feed() over files held in memory
// (no I/O at all). CPU time (process.cpuUsage, user + system) is the figure to compare: wall time is noisy
// on a shared machine. A digest of the resulting index shows that two builds agree on what they found.
//
//   node --import tsx bench/scan-speed.ts [--projects DIR] [--runs 3] [--chunk BYTES] [--memory MB] [--skip-refresh]
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { LineScanner } from '../src/domain/sessions/lineScanner.js';
import { SessionIndex } from '../src/domain/sessions/sessionIndex.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '/tmp/plan-memory-viewer-bench/home-4259c58428b1/projects' },
    runs: { type: 'string', default: '3' },
    chunk: { type: 'string' },
    memory: { type: 'string', default: '0' },
    'skip-refresh': { type: 'boolean', default: false },
  },
});
const projectsDir = values.projects!;
const runs = Number(values.runs);
const chunkBytes = values.chunk === undefined ? undefined : Number(values.chunk);
const memoryMb = Number(values.memory);

const ms = (n: number): string => `${n.toFixed(0)} ms`;

function cpuMs(since: NodeJS.CpuUsage): { user: number; system: number; total: number } {
  const d = process.cpuUsage(since);
  return { user: d.user / 1000, system: d.system / 1000, total: (d.user + d.system) / 1000 };
}

/**
 * Everything the index read (offsets and facts per file), independent of the order files finished in
 * (the snapshot lists files sorted by path) and of when its directories were listed (their stamps).
 */
function digestOf(index: SessionIndex): string {
  const { dirs: _dirs, ...facts } = index.toJSON() as Record<string, unknown>;
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16);
}

async function refreshRuns(): Promise<void> {
  const results: { wall: number; cpu: number; user: number; system: number; lagMax: number }[] = [];
  let digest = '';
  for (let run = 0; run < runs; run++) {
    const index = new SessionIndex(chunkBytes === undefined ? { projectsDir } : { projectsDir, chunkBytes });
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await index.refresh();
    const wall = performance.now() - t0;
    const cpu = cpuMs(cpu0);
    lag.disable();
    const stats = index.scanStats();
    const runDigest = digestOf(index);
    if (digest !== '' && runDigest !== digest) throw new Error(`runs disagree: ${digest} vs ${runDigest}`);
    digest = runDigest;
    results.push({ wall, cpu: cpu.total, user: cpu.user, system: cpu.system, lagMax: lag.max / 1e6 });
    console.log(
      `refresh #${run + 1}: wall ${ms(wall)}, cpu ${ms(cpu.total)} (user ${ms(cpu.user)}, sys ${ms(cpu.system)}), ` +
        `max loop delay ${ms(lag.max / 1e6)}, ${(stats.bytesRead / 2 ** 20).toFixed(0)} MiB, ` +
        `${stats.trackedFiles} files, retained <= ${stats.maxRetainedBytes} B`,
    );
  }
  const best = (key: 'wall' | 'cpu'): number => Math.min(...results.map((r) => r[key]));
  console.log(`best: wall ${ms(best('wall'))}, cpu ${ms(best('cpu'))}; index digest ${digest}`);
}

async function listLogs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(path.join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/** Pure scanner CPU over files already in memory, fed in 256 KiB chunks. */
async function scannerRuns(): Promise<void> {
  const files: Buffer[] = [];
  let total = 0;
  for (const file of await listLogs(projectsDir)) {
    if (total >= memoryMb * 2 ** 20) break;
    const data = await readFile(file);
    files.push(data);
    total += data.length;
  }
  const chunk = chunkBytes ?? 256 * 1024;
  const scanner = new LineScanner();
  for (let run = 0; run < runs; run++) {
    let records = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const data of files) {
      scanner.reset();
      for (let at = 0; at < data.length; at += chunk) records += scanner.feed(data.subarray(at, at + chunk)).length;
      records += scanner.end().length;
    }
    const wall = performance.now() - t0;
    const cpu = cpuMs(cpu0);
    console.log(
      `scanner #${run + 1}: ${(total / 2 ** 20).toFixed(0)} MiB in memory, wall ${ms(wall)}, cpu ${ms(cpu.total)}, ` +
        `${records} records, ${((total / 2 ** 20) / (wall / 1000)).toFixed(0)} MiB/s`,
    );
  }
}

if (!values['skip-refresh']) await refreshRuns();
if (memoryMb > 0) await scannerRuns();
