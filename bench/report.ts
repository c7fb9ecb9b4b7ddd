// The terminal report of a run's results: the header on the machine and the home, then one table row per
// metric with its target and the closest peer's figure.

import { MB, median, table } from './measure.js';
import type { Results } from './results.js';
import { AFTER_READY_PROBE_MS, runsText, type StartResult } from './starts.js';

function fmt(x: number | null | undefined, digits = 1, unit = ''): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(digits)}${unit}`;
}

function status(ok: boolean | null): string {
  return ok === null ? '' : ok ? 'ok' : 'MISS';
}

function steadiness(c: Results['cpuSteadiness']): string {
  const all = [...c.beforeMs, ...c.afterMs];
  return `${fmt(Math.min(...all), 0)}-${fmt(Math.max(...all), 0)} ms (${fmt(c.spread, 1)}x apart; ` +
    `before ${c.beforeMs.map((x) => x.toFixed(0)).join(' ')}, after ${c.afterMs.map((x) => x.toFixed(0)).join(' ')})`;
}

export function report(r: Partial<Results> & Pick<Results, 'home' | 'readFloor' | 'warnings'>): string {
  const mb = (b: number | undefined): number | null => (b === undefined ? null : b / MB);
  const p = r.home.params;
  const lat = r.latency ?? {};
  const a = r.append;
  const f = r.freshness ?? { newPlanMs: [], deletedPlanGoneMs: [], linkMs: [] };
  const machine = r.machine ?? {};
  const med = (xs: (number | null)[]): number | null => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length === xs.length && v.length > 0 ? median(v) : null;
  };
  const le = (x: number | null | undefined, t: number): boolean | null => (x === null || x === undefined ? false : x <= t);
  const rows: string[][] = [['metric', 'value', 'target', '', 'closest peer']];
  const add = (name: string, value: string, target = '', ok: boolean | null = null, peer = ''): void => {
    rows.push([name, value, target, status(ok), peer]);
  };
  add('readFloorMs', fmt(r.readFloor.ms, 0, ' ms'), '', null, '500 ms');
  if (r.bareNodeReady) add('bare node:http server ready (Node start)', `${fmt(r.bareNodeReady.ms, 0, ' ms')} (median of ${runsText(r.bareNodeReady.runsMs)})`);
  add('ready on an empty home', fmt(r.emptyHomeReadyMs, 0, ' ms'));
  // Results before 2026-11-22 hold one start each.
  const runs = (x: StartResult | undefined): string => (x?.runsMs && x.runsMs.length > 1 ? ` (median of ${runsText(x.runsMs)})` : '');
  add('readyMs (cold)', fmt(r.cold?.readyMs, 0, ' ms') + runs(r.cold));
  add('readyMs / readFloorMs', fmt(r.cold?.ratioToFloor, 2), '<= 3', le(r.cold?.ratioToFloor, 3), '20');
  add('first response (cold)', fmt(r.cold?.firstResponseMs, 0, ' ms'));
  add('max small-request latency before ready', fmt(r.cold?.probe?.max, 1, ' ms'), '<= 50 ms',
    r.cold?.probe ? le(r.cold.probe.max, 50) : null);
  const afterReady = (x: StartResult | undefined): string =>
    x?.afterReadyProbe ? `${fmt(x.afterReadyProbe.max, 1, ' ms')} (p50 ${fmt(x.afterReadyProbe.p50, 2)}, n=${x.afterReadyProbe.n})` : 'n/a';
  if (r.cold?.afterReadyProbe !== undefined) {
    add(`max small-request latency, ${AFTER_READY_PROBE_MS / 1000} s after ready (cold)`, afterReady(r.cold), '<= 50 ms',
      r.cold.afterReadyProbe ? le(r.cold.afterReadyProbe.max, 50) : null);
  }
  add('warmRestartMs', fmt(r.warm?.readyMs, 0, ' ms') + runs(r.warm), '<= 500 ms', le(r.warm?.readyMs, 500), 'same as cold');
  if (r.warmWithoutExtraCa) {
    add('warm restart, NODE_EXTRA_CA_CERTS unset', fmt(r.warmWithoutExtraCa.readyMs, 0, ' ms') + runs(r.warmWithoutExtraCa));
  }
  if (r.warm?.afterReadyProbe !== undefined) {
    add(`max small-request latency, ${AFTER_READY_PROBE_MS / 1000} s after ready (warm)`, afterReady(r.warm), '<= 50 ms',
      r.warm.afterReadyProbe ? le(r.warm.afterReadyProbe.max, 50) : null);
  }
  add('RSS at ready (cold)', fmt(mb(r.cold?.rssBytes), 0, ' MB'), '<= 250 MB', le(mb(r.cold?.rssBytes), 250), '1.8 GB');
  add('RSS at ready (warm)', fmt(mb(r.warm?.rssBytes), 0, ' MB'), '<= 250 MB', le(mb(r.warm?.rssBytes), 250));
  add('RSS after load', fmt(mb(r.rssAfterLoadBytes), 0, ' MB'));
  add('RSS at end', fmt(mb(r.rssEndBytes), 0, ' MB'));
  const latRow = (name: string, key: string, target?: number, peer = ''): void => {
    const e = lat[key];
    if (!e) return;
    const value = `${fmt(e.p50, 2)} / ${fmt(e.p90, 2)} ms (${fmt(e.bytes / 1024, 0)} KB)` + (e.correct === false ? ' WRONG' : '');
    add(`${name} p50/p90`, value, target !== undefined ? `<= ${target} ms` : '', target !== undefined ? le(e.p50, target) : null, peer);
  };
  latRow('/api/plans', 'plans', 3, '13 ms');
  const bl = r.bareLatency;
  if (bl) add('  same bytes, bare node:http server p50/p90', `${fmt(bl.p50, 2)} / ${fmt(bl.p90, 2)} ms`);
  latRow('/api/plans gzip', 'plansGzip');
  latRow('/api/plans 304', 'plans304');
  latRow('/api/search rare', 'searchRare', 2, '30 ms');
  latRow('/api/search common', 'searchCommon');
  latRow('/api/memory', 'memory');
  latRow('/api/memory/search', 'memorySearch');
  latRow('/api/plans/{f}/content', 'planContent');
  latRow('/api/plans/{f}/outcome', 'planOutcome', 200);
  latRow('/api/sessions/{id}/transcript (50 entries)', 'transcriptPage', 100);
  latRow('/api/sessions/{id} (a session card)', 'sessionCard');
  latRow('/api/sessions/{id}/memory', 'sessionMemory');
  const tp = r.throughput;
  add(`/api/plans req/s (${tp?.connections ?? 16} conns)`, fmt(tp?.requestsPerSec, 0), '>= 1000',
    tp ? tp.requestsPerSec >= 1000 : false, '176');
  if (r.bareCeiling) add('  same bytes, bare node:http server', fmt(r.bareCeiling.requestsPerSec, 0), '', null, '~1250');
  if (r.throughputOneConnection) add('/api/plans req/s (1 conn)', fmt(r.throughputOneConnection.requestsPerSec, 0));
  if (r.bareCeilingOneConnection) add('  same bytes, bare node:http server', fmt(r.bareCeilingOneConnection.requestsPerSec, 0));
  add('new plan listed (median)', fmt(med(f.newPlanMs), 0, ' ms'), '<= 100 ms', le(med(f.newPlanMs), 100), '485 ms');
  add('deleted plan gone (median)', fmt(med(f.deletedPlanGoneMs), 0, ' ms'));
  add('log line links a plan (median)', fmt(med(f.linkMs), 0, ' ms'), '<= 200 ms', le(med(f.linkMs), 200), '340 ms');
  if (a) {
    add(`new ${fmt(a.bigLogBytes / MB, 0)} MB log links its plan`, fmt(a.bigLogLinkedMs, 0, ' ms'));
    add('read 1 MB from page cache', fmt(a.read1MbMs, 3, ' ms'));
    add('append 1 MB: visible after', `${fmt(a.appendVisibleMs, 0, ' ms')} (${fmt(a.appendVisibleRatio, 0)}x read)`);
    const pm = (x: number | null | undefined, noise: number | undefined): string => `${fmt(x, 2)} ± ${fmt(noise, 2)} ms`;
    const win = `${fmt(a.windowMs / 1000, 0)} s`;
    // A cost within twice its standard error of zero (negative, even) says nothing either way.
    const totalResolved = a.cpuMedianMs === null || Math.abs(a.cpuMedianMs) > 2 * a.cpuNoiseMs;
    add(`append 1 MB: server CPU (${win})`, `${pm(a.cpuMedianMs, a.cpuNoiseMs)} (${fmt(a.cpuRatio, 1)}x read` +
      `${totalResolved ? '' : ', below noise'})`, '<= 2x', totalResolved ? le(a.cpuRatio, 2) : null, 'rereads file');
    add(`append 1 line: server CPU (${win}, fixed cost)`, pm(a.lineCpuMedianMs, a.lineCpuNoiseMs));
    // Older results lack the noise figures: show them as before.
    const resolved = a.marginalResolved ?? true;
    add('append 1 MB: per-byte CPU (1 MB - 1 line)',
      resolved ? `${fmt(a.marginalCpuRatio, 1)}x read` : `below noise (±${fmt((2 * a.marginalNoiseMs) / a.read1MbMs, 0)}x read)`,
      '<= 2x', resolved ? le(a.marginalCpuRatio, 2) : null);
    if (a.immediateMs !== undefined) {
      const first = `first ${fmt(a.immediateMs / 1000, 1)} s`;
      add(`  1 MB / 1 line, ${first} only`, `${pm(a.immediateCpuMs, a.immediateNoiseMs)} / ${fmt(a.lineImmediateCpuMs, 2)} ms`);
      // As for the whole window: a difference within twice its standard error is not resolved either way.
      const noiseRatio = a.marginalImmediateNoiseMs / a.read1MbMs;
      const resolvedFirst = Math.abs(a.marginalImmediateCpuRatio) >= 2 * noiseRatio;
      add(`  per-byte CPU, ${first} only`, `${fmt(a.marginalImmediateCpuRatio, 1)} ± ${fmt(noiseRatio, 1)}x read` +
        (resolvedFirst ? '' : ' (below noise)'), '<= 2x', resolvedFirst ? le(a.marginalImmediateCpuRatio, 2) : null);
    }
    const w = a.warmupImmediateCpuMs;
    const list = (xs: number[]): string => xs.map((x) => x.toFixed(1)).join(', ');
    if (w && w.mb.length > 0) add('  warm-up appends before them, 1 MB / 1 line, first s', `${list(w.mb)} / ${list(w.line)} ms`);
  }
  const ip = r.appendInProcess;
  if (ip) {
    // Decided only when the ratio is more than twice its standard error away from the target.
    const within = (x: number, noise: number, limit: number): boolean | null =>
      x + 2 * noise <= limit ? true : x - 2 * noise > limit ? false : null;
    add(`append in process (SessionIndex.updateFile, median of ${ip.rounds})`,
      `1 MB ${fmt(ip.mb.medianMs, 3)} (${fmt(ip.mb.medianMs / ip.read1MbMs, 1)}x read) / 1 line ${fmt(ip.line.medianMs, 3)} ms CPU`);
    add('  per-byte CPU (1 MB - 1 line)', `${fmt(ip.perByteRatio, 2)} ± ${fmt(ip.perByteNoise, 2)}x read`, '<= 2x',
      within(ip.perByteRatio, ip.perByteNoise, 2));
    add(`  1 MB of ordinary lines only (${ip.linesPerMb.mbOrdinary} lines, not ${ip.linesPerMb.mb})`,
      `${fmt(ip.mbOrdinary.medianMs, 3)} ms: ${fmt(ip.ordinaryPerByteRatio, 2)} ± ${fmt(ip.ordinaryPerByteNoise, 2)}x read`);
    add(`  first ${ip.firstMbCpuMs.length} 1 MB appends (warm-up)`, `${ip.firstMbCpuMs.map((x) => x.toFixed(2)).join(', ')} ms`);
  }
  if (r.mcpFirstSearch) {
    const m = r.mcpFirstSearch;
    add('mcp: a fresh process\'s first complete search, no cache / warm cache (median of runs)', `${fmt(m.coldMs, 0)} / ${fmt(m.warmMs, 0)} ms (warm runs ${m.warmRunsMs.join(', ')})`);
  }
  if (r.find) {
    const f = r.find;
    add(`find: index of ${f.documents} documents built (plans, memory / with sessions)`, `${fmt(f.buildMs, 0)} / ${fmt(f.buildWithSessionsMs, 0)} ms`);
    add('  longest event-loop stall while building', `${fmt(f.longestStallMs, 1)} ms`, '<= 50 ms', le(f.longestStallMs, 50));
    add('  turns over 20 ms while building', String(f.turnsOver20Ms));
    add('  longest turns: at / length / collector\'s pauses within', f.longestTurns.map((t) => `${t.atMs} / ${t.ms} / ${t.gcMs} ms`).join('; '));
    add('  the collector\'s longest pause while building', `${fmt(f.longestGcMs, 1)} ms`);
    add('  index size: serialized / heap growth', `${fmt(f.serializedBytes / MB, 1)} / ${fmt(f.heapGrowthBytes / MB, 1)} MB`);
    for (const q of f.queries) {
      add(`  ${q.words}-word queries (${q.count}, median ${q.medianTotal} results): p50 / p95`, `${fmt(q.p50Ms, 2)} / ${fmt(q.p95Ms, 2)} ms`,
        '<= 10 / 25 ms', le(q.p50Ms, 10) === true && le(q.p95Ms, 25) === true);
    }
  }
  const fs = r.firstScreen;
  if (fs) {
    add(`first plan rows on screen after navigation (Chromium, median of ${fs.loads} cold loads)`,
      `${fmt(fs.medianMs, 0, ' ms')} (${fs.rowsMs.join(', ')}; load average ${fs.loadAvg.join(' ')})`, '<= 700 ms', le(fs.medianMs, 700));
    add('  first contentful paint', `${fmt(median(fs.fcpMs), 0, ' ms')} (${fs.fcpMs.join(', ')})`);
    add('  page, scripts and styles: over the wire / decoded', `${fmt(fs.transferBytes / 1024, 0, ' KB')} / ${fmt(fs.decodedBytes / 1024, 0, ' KB')}`);
    add('  GET /api/plans per load', String(fs.planRequests), '1 (preload taken)', fs.planRequests === 1);
  }
  for (const h of r.hostile ?? []) {
    const slowest = Math.max(h.saveSlowestMs ?? Infinity, h.readSlowestMs, h.concurrentSlowestMs ?? 0);
    add(`hostile ${h.name}: slowest small request save / read${h.concurrentSlowestMs !== null ? ' / 4 readers' : ''}`,
      `${fmt(h.saveSlowestMs, 0)} / ${fmt(h.readSlowestMs, 0)}${h.concurrentSlowestMs !== null ? ` / ${fmt(h.concurrentSlowestMs, 0)}` : ''} ms`,
      `<= ${h.targetMs} ms`, le(slowest, h.targetMs));
    add(`  RSS growth (file ${fmt(h.fileBytes / MB, 0)} MB)`, `${fmt(h.rssGrowthBytes / MB, 0)} MB (${fmt(h.rssGrowthBytes / h.fileBytes, 2)}x)`,
      '<= 2x', le(h.rssGrowthBytes / h.fileBytes, 2));
    for (const stage of h.routes ?? []) {
      add(`  ${stage.route} (${stage.outcome}, ${fmt(stage.ms, 0, ' ms')}): slowest small request / RSS growth`,
        `${fmt(stage.slowestMs, 0)} ms / ${fmt(stage.rssGrowthBytes / MB, 0)} MB (${fmt(stage.rssGrowthBytes / h.fileBytes, 2)}x)`,
        `<= ${h.targetMs} ms, <= 2x`, le(stage.slowestMs, h.targetMs) === true && le(stage.rssGrowthBytes / h.fileBytes, 2) === true);
    }
  }
  const h = r.history;
  if (h) {
    const ms = (xs: (number | null)[]): string => xs.map((x) => (x === null ? 'never' : x.toFixed(0))).join(', ');
    add(`history: ${h.plans} plans + ${h.archived} archived, ${h.versions} versions (at most ${h.maxVersions} a plan)`,
      h.mismatchCount === 0 ? 'all as the facts say' : `${h.mismatchCount} differ`, '', h.mismatchCount === 0);
    add('  cold start: plan list / archive / history built', `${fmt(h.cold.readyMs, 0)} / ${fmt(h.cold.archiveMs, 0)} / ` +
      `${fmt(h.cold.historyMs, 0, ' ms')} (median of ${ms(h.cold.runsMs)})`);
    add('  warm restart: plan list / archive / history built', `${fmt(h.warm.readyMs, 0)} / ${fmt(h.warm.archiveMs, 0)} / ` +
      `${fmt(h.warm.historyMs, 0, ' ms')} (median of ${ms(h.warm.runsMs)})`);
    add('  slowest small request while the history is built (cold / warm)', `${fmt(h.cold.slowestSmallMs, 0)} / ${fmt(h.warm.slowestSmallMs, 0, ' ms')}`,
      '~50 ms', le(Math.max(h.cold.slowestSmallMs, h.warm.slowestSmallMs), 50));
    add('  RSS at ready / with history (cold)', `${fmt(mb(h.cold.rssAtReadyBytes), 0)} / ${fmt(mb(h.cold.rssWithHistoryBytes), 0, ' MB')}`);
    add('  history cache: index / observed versions', `${fmt(mb(h.cacheBytes.index), 1)} / ${fmt(mb(h.cacheBytes.observed), 1, ' MB')}`);
    add('  GET history, each plan once: p50 / p95 / max', `${fmt(h.history.p50, 1)} / ${fmt(h.history.p95, 1)} / ${fmt(h.history.max, 1, ' ms')}`,
      '<= 200 ms', le(h.history.max, 200));
    add('  GET history again (story kept): p50 / p95', `${fmt(h.historyAgain.p50, 2)} / ${fmt(h.historyAgain.p95, 2, ' ms')}`);
    add('  GET a version\'s content: p50 / p95 / max', `${fmt(h.version.p50, 2)} / ${fmt(h.version.p95, 2)} / ${fmt(h.version.max, 1, ' ms')}`);
  }
  const header = `plan-memory-viewer benchmark — ${r.startedAt ?? ''}\n` +
    `machine: ${String(machine.cpus)} x ${String(machine.model)}, ${String(machine.memGB)} GB, Linux ${String(machine.kernel)}, ` +
    `Node ${String(machine.node)}, load average at start ${JSON.stringify(machine.loadAvgAtStart ?? null)}\n` +
    (machine.nodeExtraCaCerts ? `NODE_EXTRA_CA_CERTS is set (${String(machine.nodeExtraCaCerts)}): Node loads it at every start\n` : '') +
    (r.cpuSteadiness ? `CPU speed: a fixed loop took ${steadiness(r.cpuSteadiness)}\n` : '') +
    `server: ${r.server ?? ''}\n` +
    `home (${r.preset ?? ''}): ${r.home.counts.plans} plans, ${p.projects} projects, ${fmt(r.home.counts.logBytes / MB, 0)} MB logs ` +
    `(${r.home.counts.hugeLines} huge lines), ${r.home.counts.memorySources} memory sources, ${r.home.counts.memoryEntries} memory files`;
  const warnings = r.warnings.length > 0 ? '\nwarnings:\n' + r.warnings.map((w) => `  - ${w}`).join('\n') : '';
  return header + '\n\n' + table(rows) + warnings;
}
