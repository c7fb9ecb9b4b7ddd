// Phase 8, appending 1 MB to a 200 MB log: how soon the plan list shows it, and the server's CPU for it
// against reading 1 MB, against appending a single line and against doing nothing.

import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { measureCost, seOfDifference, type KindCost } from './cpu-cost.js';
import type { HomeChanges } from './home-changes.js';
import { encodeProjectDir } from './home-layout.js';
import { recordRemove } from './home.js';
import { APPEND_HUGE_SHARE, logChunkBytes, writeLogChunk, type LineContext } from './log-lines.js';
import { cpuDeltaMs, MB, readRangeMs, sleep, treeCpu } from './measure.js';
import type { PlanMap } from './plan-list.js';
import type { RunContext } from './run-context.js';
import type { Server } from './server.js';

export async function measureAppendCost(run: RunContext, server: Server, changes: HomeChanges): Promise<void> {
  const { opts, home, facts, results, warn } = run;
  const { poller, settle, slugless, orphans } = changes;
  const host = slugless[0] ?? facts.sessions[0];
  // Each CPU round and warm-up append links a fresh orphan plan; the big log and the latency round take two.
  const cpuRoundCount = Math.min(opts.cpuRounds, Math.floor((orphans.length - 2 - 2 * opts.appendWarmup) / 2));
  if (cpuRoundCount < opts.cpuRounds) warn(`only ${orphans.length} orphan plans: ${cpuRoundCount} CPU rounds of each kind`);
  if (!host || cpuRoundCount < 2) {
    warn('not enough orphan plans for the append test');
    results.append = null;
    return;
  }
  const sessionId = randomUUID();
  const bigLog = path.join(home, 'projects', encodeProjectDir(host.cwd), `${sessionId}.jsonl`);
  recordRemove(home, bigLog);
  const ctx: LineContext = { cwd: host.cwd, sessionId, slug: null, agentId: null, time: Date.now(), parent: null };
  const firstSlug = orphans.shift() as string;
  await settle(server.pid);
  const tb = performance.now();
  // Written to a temp name (ignored as `*.tmp.*`) and renamed: the server sees a complete log at once.
  const bigTmp = `${bigLog}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
  recordRemove(home, bigTmp);
  writeLogChunk(bigTmp, { seed: 7, ctx, bytes: opts.bigLogBytes, hugeShare: opts.params.hugeShare, finalSlug: firstSlug, append: false });
  fs.renameSync(bigTmp, bigLog);
  const tw = performance.now();
  const linked = (slug: string) => (m: PlanMap): boolean => m.get(`${slug}.md`)?.sessionId === sessionId;
  const bigLinked = await poller.until(tw, linked(firstSlug), 60_000);
  console.log(`200 MB log written in ${(tw - tb).toFixed(0)} ms, linked ${bigLinked?.toFixed(0) ?? 'never'} ms later`);
  await settle(server.pid);
  const size = fs.statSync(bigLog).size;
  const read1MbMs = Math.min(readRangeMs(bigLog, MB, 256 * 1024), readRangeMs(bigLog, MB));

  const chunk = (slug: string, seed: number, bytes = MB): Buffer =>
    logChunkBytes({ seed, ctx, bytes, hugeShare: APPEND_HUGE_SHARE, finalSlug: slug });
  // Latency, polling the plan list.
  const slugA = orphans.shift() as string;
  const bufA = chunk(slugA, 11);
  await settle(server.pid);
  const cA0 = treeCpu(server.pid);
  const ta = performance.now();
  fs.appendFileSync(bigLog, bufA);
  const appendVisibleMs = await poller.until(ta, linked(slugA));
  const cpuWithPollingMs = cpuDeltaMs(cA0, treeCpu(server.pid));
  // CPU, without polling: fixed windows, control rounds and noise estimate (bench/cpu-cost.ts says why).
  const windowMs = opts.cpuWindowS * 1000;
  const immediateMs = Math.min(windowMs, Math.max(1000, Math.ceil((2 * (appendVisibleMs ?? 500)) / 100) * 100));
  let seed = 20;
  const prepare = (bytes: number): { slug: string; buf: Buffer } | null => {
    const slug = orphans.shift();
    return slug === undefined ? null : { slug, buf: chunk(slug, seed++, bytes) };
  };
  // Warm-up: a restarted server has scanned little on its main thread, and V8 optimizes the scanner there over
  // its first appends (~5–10 ms of compiling per append, on its background threads, in the first two or
  // three). That is paid once per process, not per byte: those appends are kept, but not measured as rounds.
  const warmupCpuMs: Record<'mb' | 'line', number[]> = { mb: [], line: [] };
  for (let i = 0; i < opts.appendWarmup; i++) {
    for (const kind of ['mb', 'line'] as const) {
      const warm = prepare(kind === 'mb' ? MB : 0);
      if (!warm) throw new Error('append warm-up: ran out of orphan plans');
      await settle(server.pid);
      const c0 = treeCpu(server.pid);
      fs.appendFileSync(bigLog, warm.buf);
      await sleep(immediateMs);
      warmupCpuMs[kind].push(cpuDeltaMs(c0, treeCpu(server.pid)));
      if ((await poller.until(performance.now(), linked(warm.slug), 10_000)) === null) warn(`append warm-up (${kind}): plan not linked`);
    }
  }
  // The latency round's and the warm-up's deferred work (the index save) must not land in the first window.
  await sleep(windowMs);
  // The next chunk of each kind is built before its window opens, so only the append itself is inside.
  const next = { mb: prepare(MB), line: prepare(0) };
  const append = (chunkToAppend: { buf: Buffer } | null): void => {
    // cpuRoundCount leaves enough orphans; without one the round would silently be a control round.
    if (!chunkToAppend) throw new Error('append CPU: ran out of orphan plans');
    fs.appendFileSync(bigLog, chunkToAppend.buf);
  };
  const cost = await measureCost({
    pid: server.pid, rounds: cpuRoundCount, windowMs, immediateMs,
    kinds: {
      mb: () => append(next.mb),
      line: () => append(next.line),
      none: null,
    },
    after: async (kind) => {
      if (kind !== 'mb' && kind !== 'line') return;
      const done = next[kind];
      if (done && (await poller.until(performance.now(), linked(done.slug), 10_000)) === null) {
        warn(`append round (${kind}): plan not linked`);
      }
      next[kind] = prepare(kind === 'mb' ? MB : 0);
    },
  });
  const { mb, line, none } = cost.byKind as Record<'mb' | 'line' | 'none', KindCost>;
  const se = seOfDifference;
  const cpuNoiseMs = se(mb.seMs, none.seMs);
  const marginalNoiseMs = se(mb.seMs, line.seMs);
  const spill = Math.max(mb.spillMs, line.spillMs);
  if (spill > Math.max(1, 3 * cpuNoiseMs)) {
    warn(`append CPU: ${spill.toFixed(1)} ms of work after the ${opts.cpuWindowS} s window: raise --cpu-window`);
  }
  if (cost.statMismatchMs > 20) {
    warn(`append CPU: /proc stat and schedstat differ by ${cost.statMismatchMs.toFixed(0)} ms: short-lived threads?`);
  }
  const controlMedian = none.rawMedianMs;
  const marginalMs = mb.medianMs - line.medianMs;
  results.append = {
    bigLogBytes: size, bigLogLinkedMs: bigLinked, read1MbMs, floorPerMbMs: run.readFloor.ms / (run.readFloor.bytes / MB),
    appendVisibleMs, appendVisibleRatio: appendVisibleMs !== null ? appendVisibleMs / read1MbMs : null,
    cpuWithPollingMs, idleCpuPerSecMs: controlMedian / opts.cpuWindowS, controlCpuMs: none.roundsMs, windowMs,
    cpuMs: mb.roundsMs.map((x) => x - controlMedian), cpuMedianMs: mb.medianMs, cpuRatio: mb.medianMs / read1MbMs,
    lineCpuMs: line.roundsMs.map((x) => x - controlMedian), lineCpuMedianMs: line.medianMs,
    marginalCpuRatio: marginalMs / read1MbMs,
    cpuRounds: cpuRoundCount, cpuNoiseMs, lineCpuNoiseMs: se(line.seMs, none.seMs), marginalNoiseMs,
    marginalResolved: Math.abs(marginalMs) > 2 * marginalNoiseMs,
    immediateMs, immediateCpuMs: mb.immediateMedianMs, lineImmediateCpuMs: line.immediateMedianMs,
    immediateNoiseMs: se(mb.immediateSeMs, none.immediateSeMs),
    marginalImmediateCpuRatio: (mb.immediateMedianMs - line.immediateMedianMs) / read1MbMs,
    marginalImmediateNoiseMs: se(mb.immediateSeMs, line.immediateSeMs),
    spillMs: spill, statMismatchMs: cost.statMismatchMs, rounds: cost.rounds, warmupImmediateCpuMs: warmupCpuMs,
  };
  console.log(`append 1 MB: visible ${appendVisibleMs?.toFixed(0)} ms, CPU ${mb.medianMs.toFixed(2)} ± ` +
    `${cpuNoiseMs.toFixed(2)} ms (read 1 MB: ${read1MbMs.toFixed(2)} ms)`);
}
