// What a home's facts.json holds: the params it was generated from and the facts a correct server must
// report about it.

import type { HistoryFact } from './plan-story.js';

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
  /** Every plan file name → what its history (GET /api/plans/{f}/history) must show once the logs are read. */
  history: Record<string, HistoryFact>;
  /**
   * Plans a session wrote whose file is gone (as after a cleanup): GET /api/archive must list exactly these,
   * and their history must show this.
   */
  archived: Record<string, HistoryFact>;
}
