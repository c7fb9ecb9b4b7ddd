// Phase 9, the append's per-byte cost where it can be resolved: the session index alone, in this process,
// with no server, watcher or HTTP around it. The server-level figure (append-cost.ts) carries a fixed cost
// of ~3–8 ms per change and V8 compiling the scanner on the server's main thread in its first appends after a
// start, against ~0.1 ms for the bytes themselves; here each append is timed on its own, after warm-up, as
// `SessionIndex.updateFile()` does it for the server (reads below 8 MB stay on the main thread).

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionIndex } from '../src/domain/sessions/sessionIndex.js';
import { median, medianSe, seOfDifference } from './cpu-cost.js';
import { APPEND_HUGE_SHARE, logChunkBytes, writeLogChunk, type LineContext } from './log-lines.js';
import { MB, readRangeMs } from './measure.js';

export interface InProcessAppendOptions {
  /** Size of the log the appends go to (the server-level test's 200 MB). */
  logBytes: number;
  /** Huge-line share of that log, as in the generated home. */
  hugeShare: number;
  /** Measured appends of each kind, interleaved. */
  rounds: number;
  /** Appends of each kind before measuring: V8 optimizes the scanner over the first ones. */
  warmup: number;
}

export interface AppendKindCost {
  /** Process CPU (user + system) of each measured updateFile(), in ms. */
  cpuMs: number[];
  medianMs: number;
  seMs: number;
}

export interface InProcessAppendResult {
  logBytes: number;
  rounds: number;
  warmup: number;
  read1MbMs: number;
  /** The server-level test's 1 MB chunk: ordinary lines, one huge tool output, a last line with a new slug. */
  mb: AppendKindCost;
  /** 1 MB of ordinary conversation lines only (no huge line): the most lines, so the most per-line work. */
  mbOrdinary: AppendKindCost;
  /** One line with a new slug: the fixed cost of an update (stat, open, read, publish). */
  line: AppendKindCost;
  /** Lines in each 1 MB chunk (first chunk of each kind). */
  linesPerMb: { mb: number; mbOrdinary: number };
  /** (1 MB − 1 line) / read 1 MB, and the standard error of that ratio. */
  perByteRatio: number;
  perByteNoise: number;
  ordinaryPerByteRatio: number;
  ordinaryPerByteNoise: number;
  /** The first appends, before warm-up: what V8's compiling adds to a server's first big append. */
  firstMbCpuMs: number[];
}

type Kind = 'mb' | 'mbOrdinary' | 'line';
const KINDS: readonly Kind[] = ['mb', 'mbOrdinary', 'line'];

export async function measureAppendInProcess(o: InProcessAppendOptions): Promise<InProcessAppendResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-bench-append-'));
  try {
    const projectsDir = path.join(root, 'projects');
    const folder = path.join(projectsDir, '-bench-append');
    fs.mkdirSync(folder, { recursive: true });
    const sessionId = randomUUID();
    const log = path.join(folder, `${sessionId}.jsonl`);
    const ctx: LineContext = { cwd: '/bench/append', sessionId, slug: null, agentId: null, time: Date.now(), parent: null };
    writeLogChunk(log, { seed: 7, ctx, bytes: o.logBytes, hugeShare: o.hugeShare, finalSlug: 'bench-append-base', append: false });
    const read1MbMs = Math.min(readRangeMs(log, MB, 256 * 1024), readRangeMs(log, MB));

    let seed = 1000;
    const chunk = (kind: Kind): { slug: string; buf: Buffer } => {
      const slug = `bench-append-${seed}`;
      const bytes = kind === 'line' ? 0 : MB;
      const hugeShare = kind === 'mb' ? APPEND_HUGE_SHARE : 0;
      return { slug, buf: logChunkBytes({ seed: seed++, ctx, bytes, hugeShare, finalSlug: slug }) };
    };
    // Built before anything is timed: only the append's own update is inside a measure.
    const total = o.warmup + o.rounds;
    const chunks = new Map(KINDS.map((k) => [k, Array.from({ length: total }, () => chunk(k))]));
    const countLines = (b: Buffer): number => b.toString('latin1').split('\n').length - 1;
    const linesPerMb = { mb: countLines(chunks.get('mb')![0]!.buf), mbOrdinary: countLines(chunks.get('mbOrdinary')![0]!.buf) };

    const index = new SessionIndex({ projectsDir });
    await index.refresh();
    if (index.linkForPlan('bench-append-base.md')?.sessionId !== sessionId) throw new Error('append in process: the log was not indexed');

    const cpu: Record<Kind, number[]> = { mb: [], mbOrdinary: [], line: [] };
    const firstMbCpuMs: number[] = [];
    for (let i = 0; i < total; i++) {
      // Rotating order, so that no kind always follows the same one.
      for (let j = 0; j < KINDS.length; j++) {
        const kind = KINDS[(i + j) % KINDS.length]!;
        const { slug, buf } = chunks.get(kind)![i]!;
        fs.appendFileSync(log, buf);
        const c0 = process.cpuUsage();
        await index.updateFile(log);
        const c = process.cpuUsage(c0);
        // Every append must have been read: its last line links a new plan.
        if (index.linkForPlan(`${slug}.md`)?.sessionId !== sessionId) throw new Error(`append in process: ${slug} not linked`);
        const ms = (c.user + c.system) / 1000;
        if (i >= o.warmup) cpu[kind].push(ms);
        else if (kind === 'mb') firstMbCpuMs.push(ms);
      }
    }
    const cost = (kind: Kind): AppendKindCost => ({ cpuMs: cpu[kind], medianMs: median(cpu[kind]), seMs: medianSe(cpu[kind]) });
    const mb = cost('mb');
    const mbOrdinary = cost('mbOrdinary');
    const line = cost('line');
    return {
      logBytes: o.logBytes, rounds: o.rounds, warmup: o.warmup, read1MbMs, mb, mbOrdinary, line, linesPerMb,
      perByteRatio: (mb.medianMs - line.medianMs) / read1MbMs,
      perByteNoise: seOfDifference(mb.seMs, line.seMs) / read1MbMs,
      ordinaryPerByteRatio: (mbOrdinary.medianMs - line.medianMs) / read1MbMs,
      ordinaryPerByteNoise: seOfDifference(mbOrdinary.seMs, line.seMs) / read1MbMs,
      firstMbCpuMs,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
