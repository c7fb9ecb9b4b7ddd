// What the transcripts answer beyond a plan's history: what happened after a plan was approved, a session's
// card, transcript page, memory and prompts, the sessions only history.jsonl still names, what Claude Code is
// about to delete, and costs. Each waits for every log's facts (and the kept copies) first, so that none is
// built on part of them. The Viewer owns the stores and hands them here.
import type { CostsBody } from './contract/costs.js';
import type { PlanOutcome } from './contract/outcome.js';
import type { GoneSessionsBody } from './contract/promptHistory.js';
import type { SessionMemoryBody } from './contract/sessionMemory.js';
import type { TranscriptBody } from './contract/transcript.js';
import type { HistoryKeeper } from './domain/history/historyKeeper.js';
import { retentionReport, type RetentionReport } from './domain/history/retentionReport.js';
import type { MemoryHistory } from './domain/memory/history/memoryHistory.js';
import { sessionMemory } from './domain/memory/history/sessionMemory.js';
import type { MemoryStore } from './domain/memory/memoryStore.js';
import { costs, type CostQuery } from './domain/outcome/costs.js';
import { planOutcome } from './domain/outcome/planOutcome.js';
import { PRICES_AS_OF } from './domain/outcome/pricing.js';
import type { PlanStore } from './domain/plans/planStore.js';
import { goneCard, gonePage, knownSessionIds } from './domain/promptHistory/goneSessions.js';
import type { Prompt, PromptHistory } from './domain/promptHistory/promptHistory.js';
import type { SessionIndex } from './domain/sessions/sessionIndex.js';
import type { KeptLogs } from './domain/transcripts/keptLogs.js';
import { transcriptPage } from './domain/transcripts/sessionTranscript.js';
import { logOwner } from './domain/transcripts/transcriptReader.js';
import type { SessionCard } from './domain/types.js';

export interface AnswerSources {
  claudeDir: string;
  sessions: SessionIndex;
  plans: PlanStore;
  memory: MemoryStore;
  history: HistoryKeeper;
  memoryHistory: MemoryHistory;
  prompts: PromptHistory;
  kept: KeptLogs;
  /** Resolves once every log's facts are at hand (Viewer.transcriptsReady, which a start replaces). */
  transcriptsReady(): Promise<void>;
  /** transcriptsReady(), then no kept copy being opened or let go (Viewer.keptSettled()). */
  keptSettled(): Promise<void>;
}

export class TranscriptAnswers {
  constructor(private readonly o: AnswerSources) {}

  /** What happened after the plan was approved (domain/outcome/), or null when no plan has that name. */
  async planOutcome(filename: string): Promise<PlanOutcome | null> {
    await this.o.keptSettled();
    return planOutcome({
      story: async (name) => {
        const story = await this.o.history.stories.story(name);
        if (story === null) return null;
        const last = story.versions.at(-1);
        return { events: story.events, text: last === undefined ? null : story.contents.get(last.id) ?? null };
      },
      logs: () => this.o.sessions.logs(),
    }, filename);
  }

  /** A page of a session's transcript (its main log, or a subagent's), or null when there is no such log. */
  async sessionTranscript(sessionId: string, agentId: string | null, cursor: number, limit: number): Promise<TranscriptBody | null> {
    await this.o.keptSettled();
    let file: string | null = null;
    const subagents: string[] = [];
    for (const [log] of this.o.sessions.logs()) {
      const owner = logOwner(log);
      if (owner.sessionId !== sessionId) continue;
      if (owner.main && agentId === null) file = log;
      if (!owner.main && owner.agentId !== null) {
        subagents.push(owner.agentId);
        if (owner.agentId === agentId) file = log;
      }
    }
    if (file === null) return null;
    const page = transcriptPage(file, cursor, limit);
    return page === null ? null : { sessionId, agentId, ...page, subagents: subagents.sort() };
  }

  /** What a session saw of memory (domain/memory/history/sessionMemory.ts), or null when no log names the session. */
  async sessionMemory(sessionId: string): Promise<SessionMemoryBody | null> {
    await this.o.transcriptsReady();
    return sessionMemory(sessionId, {
      session: this.o.history.stories.session(sessionId), logs: () => this.o.sessions.logs(), memory: this.o.memory, history: this.o.memoryHistory,
    });
  }

  /**
   * A session's card: from its logs, else (its transcript gone) from what history.jsonl keeps of it; null
   * when neither names it.
   */
  async sessionCard(sessionId: string): Promise<SessionCard | null> {
    await this.o.transcriptsReady();
    const card = this.o.history.stories.session(sessionId);
    if (card !== null) return card;
    await this.o.prompts.refresh();
    const facts = this.o.prompts.session(sessionId);
    return facts === null ? null : goneCard(facts);
  }

  /** Sessions history.jsonl names and no log does, a page at a time (goneSessions.ts). */
  async goneSessions(limit: number, cursor: number): Promise<GoneSessionsBody> {
    await this.o.transcriptsReady();
    await this.o.prompts.refresh();
    return { ...gonePage(this.o.prompts, knownSessionIds(this.o.sessions), limit, cursor), projects: this.o.prompts.projects(), badLines: this.o.prompts.badLines };
  }

  /** A session's prompts from history.jsonl, or null when it names no such session. */
  sessionPrompts(sessionId: string): Promise<Prompt[] | null> {
    return this.o.prompts.prompts(sessionId);
  }

  /** What Claude Code will delete within a week, and what the viewer keeps of it (retentionReport.ts). */
  async retention(): Promise<RetentionReport> {
    await this.o.transcriptsReady();
    await this.o.prompts.refresh();
    return retentionReport({
      claudeDir: this.o.claudeDir, plans: this.o.plans, sessions: this.o.sessions, observed: this.o.history.observed, prompts: this.o.prompts, kept: this.o.kept, now: Date.now(),
    });
  }

  /** Cost and active time across the home (domain/outcome/costs.ts). */
  async costs(q: CostQuery): Promise<CostsBody> {
    await this.o.transcriptsReady();
    // Every answer of the home is priced: the last few bodies are kept while no log's facts change.
    const key = `${this.o.sessions.factsVersion}\0${q.by}\0${q.after}\0${q.before}`;
    const kept = this.costBodies.get(key);
    if (kept !== undefined) return kept;
    const { rows, unpricedTokens } = costs(this.o.sessions.logs(), q);
    const body: CostsBody = { by: q.by, rows, totalUsd: rows.reduce((n, r) => n + r.costUsd, 0), unpricedTokens, pricesAsOf: PRICES_AS_OF };
    if (this.costBodies.size >= 8) this.costBodies.delete(this.costBodies.keys().next().value!);
    this.costBodies.set(key, body);
    return body;
  }

  private readonly costBodies = new Map<string, CostsBody>();
}
