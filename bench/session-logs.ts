// Writing the home's session logs: each session's main log and its subagent logs, sized from a skewed share
// of the byte budget, with the plan's story (plan-story.ts: Write, Edit, MultiEdit, ExitPlanMode) once the
// session is in plan mode, the work done once it is approved (work-lines.ts), plus files in a project
// folder that are not sessions.

import fs from 'node:fs';
import path from 'node:path';
import type { HomeParams, SessionFact } from './facts.js';
import { FileWriter } from './file-writer.js';
import { FillerPool } from './filler-pool.js';
import { BASE_TIME, encodeProjectDir } from './home-layout.js';
import type { PlanSpec, SessionSpec } from './home-shape.js';
import { LineFactory, MB, type LineContext } from './log-lines.js';
import { HUGE_PLAN_MIN } from './plan-files.js';
import { buildStory, expectedHistory, lastExitApproved, shortSha, storyBytes, type HistoryFact, type StoryStep } from './plan-story.js';
import { planMarkdown } from './plan-text.js';
import { Rng } from './rng.js';
import { ADJ, GERUND, NOUN, THING, VERB, titleCase } from './vocabulary.js';
import { writeWorkAfterApproval } from './work-lines.js';

export interface LogFacts {
  sessions: SessionFact[];
  logBytes: number;
  /** What was written: lines, huge lines and their bytes, torn lines. */
  lines: LineFactory;
  /** Every plan file's history, by file name (see Facts.history). */
  history: Record<string, HistoryFact>;
  /** Plans written by a session whose file is gone, by file name. */
  archived: Record<string, HistoryFact>;
}

/** The share of sessions without a plan on disk that wrote one that is gone since. */
const GONE_PLAN_SHARE = 0.15;

/** A plan file a log writes; its story is built from `seed` when needed (twice: to size the log, to write it). */
interface StoryRef {
  filename: string;
  planFile: string;
  seed: number;
  agent: boolean;
  /** The file is gone: its last text is generated from the seed, not read from disk. */
  gone: { title: string; cwd: string } | null;
}

interface Story {
  planFile: string;
  steps: StoryStep[];
}

function storyOf(ref: StoryRef): { story: Story; disk: string | null } {
  const rng = new Rng(ref.seed);
  const text = ref.gone === null ? fs.readFileSync(ref.planFile, 'utf8')
    : planMarkdown(rng, ref.gone.title, rng.logUniform(1500, 24_000), ref.gone.cwd);
  const { steps } = buildStory(rng, text, { agent: ref.agent, huge: Buffer.byteLength(text) >= HUGE_PLAN_MIN });
  return { story: { planFile: ref.planFile, steps }, disk: ref.gone === null ? text : null };
}

export function writeSessionLogs(
  rng: Rng, home: string, plansDir: string, sessions: SessionSpec[], allPlans: PlanSpec[],
  p: Pick<HomeParams, 'logBytes' | 'hugeShare'>,
): LogFacts {
  const pool = new FillerPool(rng, Math.min(10 * MB, Math.max(5 * MB, p.logBytes)));
  const lines = new LineFactory(rng, pool, p.hugeShare);
  const stage = Buffer.allocUnsafe(4 * MB);

  // Which plan file each log writes, and what each plan's history must show.
  const stems = new Set(allPlans.map((x) => x.stem));
  const agentPlans = new Map(allPlans.filter((x) => x.agentId && x.session).map((x) => [`${x.session!.sessionId}/${x.agentId!}`, x]));
  const mainRefs = new Map<SessionSpec, StoryRef>();
  const subRefs = new Map<string, StoryRef>();
  const history: Record<string, HistoryFact> = {};
  const archived: Record<string, HistoryFact> = {};
  const reserve = new Map<StoryRef, number>();
  let reserved = 0;
  const size = (ref: StoryRef): void => {
    const { story, disk } = storyOf(ref);
    const fact = expectedHistory(story.steps, disk, ref.agent ? -1 : 1);
    (ref.gone === null ? history : archived)[ref.filename] = fact;
    const bytes = storyBytes(story.steps);
    reserve.set(ref, bytes);
    reserved += bytes;
  };
  for (const s of sessions) {
    let stem = s.plan?.stem ?? null;
    let gone: StoryRef['gone'] = null;
    if (stem === null && rng.chance(GONE_PLAN_SHARE)) {
      do stem = `${rng.pick(ADJ)}-${rng.pick(GERUND)}-${rng.pick(NOUN)}`; while (stems.has(stem));
      stems.add(stem);
      gone = { title: `${titleCase(rng.pick(VERB))} ${titleCase(rng.pick(THING))}`, cwd: s.cwd };
    }
    if (stem !== null) {
      const ref: StoryRef = { filename: `${stem}.md`, planFile: path.join(plansDir, `${stem}.md`), seed: rng.int(1, 2 ** 31), agent: false, gone };
      mainRefs.set(s, ref);
      size(ref);
    }
    for (const agentId of s.agentIds) {
      const plan = agentPlans.get(`${s.sessionId}/${agentId}`);
      if (plan === undefined) continue;
      const ref: StoryRef = { filename: `${plan.stem}.md`, planFile: path.join(plansDir, `${plan.stem}.md`), seed: rng.int(1, 2 ** 31), agent: true, gone: null };
      subRefs.set(`${s.sessionId}/${agentId}`, ref);
      size(ref);
    }
  }
  // Plans no log writes: the file on disk is their only version.
  for (const plan of allPlans) {
    const filename = `${plan.stem}.md`;
    if (filename in history) continue;
    const text = fs.readFileSync(path.join(plansDir, filename), 'utf8');
    history[filename] = {
      sources: 'd', shas: [shortSha(text)], gapAt: null, bytes: Buffer.byteLength(text),
      events: plan.agentId ? null : { entered: 0, exited: 0, approved: 0, rejected: 0 },
    };
  }

  // Budgets: the stories' bytes, plus a skewed share of what is left of the volume.
  let weightSum = 0;
  const weights = sessions.map(() => {
    const w = Math.exp(2.2 * rng.gaussian());
    weightSum += w;
    return w;
  });
  const spread = Math.max(0, p.logBytes - reserved);
  sessions.forEach((s, i) => {
    s.budget = Math.floor((spread * (weights[i] as number)) / weightSum);
  });
  const sessionFacts: SessionFact[] = [];
  let logBytes = 0;
  sessions.forEach((s, i) => {
    const encDir = encodeProjectDir(s.cwd);
    const projDir = path.join(home, 'projects', encDir);
    fs.mkdirSync(projDir, { recursive: true });
    const mainRef = mainRefs.get(s) ?? null;
    const slug = mainRef === null ? null : mainRef.filename.slice(0, -3);
    const planFile = mainRef?.planFile ?? null;
    const title = s.plan ? s.plan.title : mainRef?.gone?.title ?? `${titleCase(rng.pick(VERB))} ${titleCase(rng.pick(THING))}`;
    const subShare = s.agentIds.length > 0 ? 0.4 : 0;
    const ctx: LineContext = {
      cwd: s.cwd, sessionId: s.sessionId, slug: null, agentId: null,
      time: BASE_TIME - (sessions.length - i) * 3_600_000, parent: null,
    };
    const rel = `projects/${encDir}/${s.sessionId}.jsonl`;
    const mainReserve = mainRef === null ? 0 : reserve.get(mainRef)!;
    const bytes = writeLog({
      file: path.join(home, rel), rng, lines, stage, ctx, budget: Math.floor(s.budget * (1 - subShare)) + mainReserve,
      reserve: mainReserve, slug, planFile, title, subagent: false, story: mainRef === null ? null : storyOf(mainRef).story,
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
        const ref = subRefs.get(`${s.sessionId}/${agentId}`) ?? null;
        const subReserve = ref === null ? 0 : reserve.get(ref)!;
        const subBytes = writeLog({
          file: path.join(home, subRel), rng, lines, stage, ctx: subCtx,
          budget: Math.floor((s.budget * subShare) / s.agentIds.length) + subReserve, reserve: subReserve, slug, planFile, title,
          subagent: true, story: ref === null ? null : storyOf(ref).story,
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
  return { sessions: sessionFacts, logBytes, lines, history, archived };
}

/**
 * Writes one session log of about `budget` bytes: `reserve` of them the plan's story, the rest conversation.
 * A main log enters plan mode (slug) part-way through; a subagent's carries its parent's slug throughout.
 * The story's steps come spread over the conversation after that.
 */
function writeLog(opts: {
  file: string; rng: Rng; lines: LineFactory; stage: Buffer; ctx: LineContext; budget: number; reserve: number;
  slug: string | null; planFile: string | null; title: string; subagent: boolean; story: Story | null;
}): number {
  const { rng, lines, ctx } = opts;
  const w = new FileWriter(opts.file, opts.stage);
  const share = Math.max(0, opts.budget - opts.reserve);
  const steps = opts.story?.steps ?? [];
  let storyWritten = 0;
  let next = 0;
  let enteredAt = 0;
  const filler = (): number => w.written - storyWritten;
  const emit = (): void => {
    const step = steps[next++]!;
    const before = w.written;
    lines.storyStep(w, ctx, opts.story!.planFile, step);
    if (next === steps.length && lastExitApproved(steps) && opts.planFile) {
      lines.planModeExitAttachment(w, ctx, opts.planFile);
      if (!opts.subagent) writeWorkAfterApproval(lines, opts.rng, w, ctx);
    }
    storyWritten += w.written - before;
  };
  const emitDue = (): void => {
    while (next < steps.length && filler() >= enteredAt + ((share - enteredAt) * (next + 1)) / (steps.length + 1)) emit();
  };

  if (!opts.subagent) lines.metadata(w, ctx, 'start', opts.title);
  const enterAt = opts.slug ? Math.floor(share * (0.05 + 0.8 * rng.next())) : Infinity;
  const resumeAt = rng.chance(0.1) ? Math.floor(share * rng.next()) : Infinity;
  let resumed = false;
  let inPlan = false;
  if (opts.subagent && opts.slug) {
    ctx.slug = opts.slug;
    inPlan = true;
  }
  while (filler() < share) {
    if (!inPlan && filler() >= enterAt && opts.slug && opts.planFile) {
      ctx.slug = opts.slug;
      lines.planModeAttachment(w, ctx, opts.planFile);
      inPlan = true;
      enteredAt = filler();
    }
    if (!resumed && filler() >= resumeAt) {
      lines.metadata(w, ctx, 'resume', opts.title);
      resumed = true;
    }
    if (inPlan) emitDue();
    lines.conversation(w, ctx, share - filler());
  }
  if (!inPlan && opts.slug && opts.planFile) {
    ctx.slug = opts.slug;
    lines.planModeAttachment(w, ctx, opts.planFile);
    lines.conversation(w, ctx, 0);
  }
  while (next < steps.length) emit();
  if (!opts.subagent) lines.metadata(w, ctx, 'end', opts.title);
  w.close();
  return w.written;
}
