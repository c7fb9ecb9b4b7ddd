// Writing the home's session logs: each session's main log and its subagent logs, sized from a skewed share
// of the byte budget, plus files in a project folder that are not sessions.

import fs from 'node:fs';
import path from 'node:path';
import type { HomeParams, SessionFact } from './facts.js';
import { FileWriter } from './file-writer.js';
import { FillerPool } from './filler-pool.js';
import { BASE_TIME, encodeProjectDir } from './home-layout.js';
import type { SessionSpec } from './home-shape.js';
import { LineFactory, MB, type LineContext } from './log-lines.js';
import type { Rng } from './rng.js';
import { THING, VERB, titleCase } from './vocabulary.js';

export interface LogFacts {
  sessions: SessionFact[];
  logBytes: number;
  /** What was written: lines, huge lines and their bytes, torn lines. */
  lines: LineFactory;
}

export function writeSessionLogs(
  rng: Rng, home: string, plansDir: string, sessions: SessionSpec[], p: Pick<HomeParams, 'logBytes' | 'hugeShare'>,
): LogFacts {
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
  return { sessions: sessionFacts, logBytes, lines };
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
