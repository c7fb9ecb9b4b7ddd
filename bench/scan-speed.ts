// Micro-benchmark of the transcript reader: times a full SessionIndex.refresh() over a projects dir on this
// thread (several fresh indexes, best run reported). CPU time (process.cpuUsage, user + system) is the
// figure to compare: wall time is noisy on a shared machine. A digest of the resulting index shows that
// two builds agree on what they found.
//
//   node --import tsx bench/scan-speed.ts [--projects DIR] [--runs 3] [--chunk BYTES]
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SessionIndex } from '../src/domain/sessions/sessionIndex.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '/tmp/plan-memory-viewer-bench/home-4259c58428b1/projects' },
    runs: { type: 'string', default: '3' },
    chunk: { type: 'string' },
  },
});
const projectsDir = values.projects!;
const runs = Number(values.runs);
const chunkBytes = values.chunk === undefined ? undefined : Number(values.chunk);

const ms = (n: number): string => `${n.toFixed(0)} ms`;

function cpuMs(since: NodeJS.CpuUsage): { user: number; system: number; total: number } {
  const d = process.cpuUsage(since);
  return { user: d.user / 1000, system: d.system / 1000, total: (d.user + d.system) / 1000 };
}

/**
 * Everything the index read (offsets and facts per file), independent of the order files finished in
 * (the snapshot lists files sorted by path), of when its directories were listed (their stamps) and of the
 * name each index gives its answers.
 */
function digestOf(index: SessionIndex): string {
  const { dirs: _dirs, viewStamp: _stamp, ...facts } = index.toJSON() as Record<string, unknown>;
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
        `${stats.trackedFiles} files, read buffer <= ${stats.maxHeldBytes} B`,
    );
  }
  const best = (key: 'wall' | 'cpu'): number => Math.min(...results.map((r) => r[key]));
  console.log(`best: wall ${ms(best('wall'))}, cpu ${ms(best('cpu'))}; index digest ${digest}`);
}

await refreshRuns();
