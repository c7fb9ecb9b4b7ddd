// Plans' stories, the archive of plans that left the disk, and session cards: what the history endpoints
// answer, from the plan catalogue, the session index, the transcripts' plan facts and the observed versions.
// Stories are built when asked for and kept for the few plans read last (a story reads its writes' lines).
// A plan file too large to hold (over LARGE_FILE_BYTES) is never read whole here: its disk version is
// measured and hashed a chunk at a time, in its turn among large reads, once per content (kept by its
// stat), and its text is read from the file again when asked for (docs/security.md, rules 17, 19, 21).
import { readFileSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { readSettingsFileSync } from '../../config/settings.js';
import { openRegularFile, projectName, readSmallTextSync, statOrNull, withRegularFileSync } from '../files.js';
import { LARGE_FILE_BYTES, textFacts } from '../largeFiles.js';
import { inLargeReadTurn } from '../largeReads.js';
import { planTitle, titleFrom } from '../markdown/text.js';
import { planLinks } from '../plans/planFile.js';
import type { PlanStore } from '../plans/planStore.js';
import { candidateSlugs } from '../sessions/indexHelpers.js';
import type { SessionIndex } from '../sessions/sessionIndex.js';
import { compareTimes, type HistoryIndex } from './historyIndex.js';
import type { ObservedVersions } from './observedVersions.js';
import { planStory, type DiskSource, type LargeDiskFacts, type PlanStory } from './planStory.js';
import type { SessionFacts } from '../transcripts/extractors/sessionCards.js';
import { logOwner } from '../transcripts/transcriptReader.js';
import type { ArchivedPlan, SessionCard } from '../types.js';

const STORIES_KEPT = 16;
/**
 * The characters of versions the kept stories may hold together: a story of multi-MB versions (a Write is read
 * up to the reader's 32 MB line limit) would otherwise keep hundreds of MB alive. The newest is always kept.
 */
const STORIES_KEPT_CHARS = 32 * 1024 * 1024;
/** A subagent's meta.json holds two short strings; anything larger is not one. */
const META_MAX_BYTES = 64 * 1024;
/** Large plan files whose measure is kept (a few numbers each). */
const MEASURES_KEPT = 16;
const SEEN_TITLES_KEPT = 10_000;
/** Claude Code deletes plans in the shared plans folder after this many days, unless cleanupPeriodDays says otherwise. */
export const DEFAULT_CLEANUP_DAYS = 30;

export interface Retention {
  cleanupPeriodDays: number;
  /** When Claude Code will delete the plan (its mtime plus the period); null when it never will (not in the shared folder). */
  deletesAt: string | null;
}

/** One version's text: held in memory, or the open file of a large disk version (the caller closes it). */
export type VersionText = { text: string } | { file: { handle: FileHandle; stats: Stats } };

export interface PlanHistoryOptions {
  claudeDir: string;
  plans: PlanStore;
  sessions: SessionIndex;
  history: HistoryIndex;
  observed: ObservedVersions;
  /** The characters of versions the kept stories may hold together (STORIES_KEPT_CHARS unless tests say). */
  keptChars?: number;
}

export class PlanHistory {
  private readonly stories = new Map<string, { key: string; story: PlanStory; chars: number }>();
  /** The characters of the kept stories' versions (see STORIES_KEPT_CHARS). */
  private storiesChars = 0;
  private entriesKept: { key: string; entries: Map<string, Omit<ArchivedPlan, 'title'>> } | null = null;
  private renamesKept: { key: string; renames: Map<string, string> } | null = null;
  /** Archived plans' titles from their stories' last versions, by path (see archivedTitle()). */
  private readonly titles = new Map<string, string>();
  /** Titles of observed contents, by their hash. */
  private readonly seenTitles = new Map<string, string>();
  /** Large plan files' measures, by path, with the stat they were asked for under (requests share one). */
  private readonly measures = new Map<string, { stamp: string; facts: Promise<LargeDiskFacts | null> }>();

  constructor(private readonly o: PlanHistoryOptions) {}

  /**
   * The story of a listed or archived plan, or null when there is no such plan. A large file on disk is
   * measured first (see above).
   */
  async story(filename: string): Promise<PlanStory | null> {
    const planPath = this.planPath(filename);
    return planPath === null ? null : this.storyAt(planPath, filename, await this.largeDiskFacts(planPath, filename));
  }

  /**
   * story() without waiting: for plans not on disk (the archive's, whose texts the search index reads). A
   * large file on disk counts only once story() has measured it.
   */
  storyNow(filename: string): PlanStory | null {
    const planPath = this.planPath(filename);
    if (planPath === null) return null;
    const stats = statOrNull(planPath);
    const kept = this.measures.get(planPath);
    const measured = stats !== null && kept?.stamp === stampOf(stats) ? this.settled.get(kept.facts) ?? null : null;
    return this.storyAt(planPath, filename, measured);
  }

  /** Measures already done, by their promise (storyNow() cannot wait for one). */
  private readonly settled = new WeakMap<Promise<LargeDiskFacts | null>, LargeDiskFacts | null>();

  private planPath(filename: string): string | null {
    return this.o.plans.pathOf(filename) ?? this.archivedEntries().get(filename)?.filepath ?? null;
  }

  /**
   * The measure of a listed plan's file when it is large (null: small, gone, or not this plan's file),
   * kept while the file's stat stays the same; concurrent requests wait for the same one.
   */
  private largeDiskFacts(planPath: string, filename: string): Promise<LargeDiskFacts | null> | null {
    if (this.o.plans.find(filename)?.filepath !== planPath) return null;
    const stats = statOrNull(planPath);
    if (stats === null || !stats.isFile() || stats.size <= LARGE_FILE_BYTES) return null;
    const stamp = stampOf(stats);
    const kept = this.measures.get(planPath);
    if (kept?.stamp === stamp) return kept.facts;
    const facts = inLargeReadTurn(async () => {
      const opened = await openRegularFile(planPath, planLinks);
      if (opened === null) return null;
      try {
        return await measure(opened);
      } catch {
        return null; // unreadable after opening: no disk version, as for a file gone
      } finally {
        await opened.handle.close().catch(() => undefined);
      }
    });
    const settle = (measured: LargeDiskFacts | null): void => {
      this.settled.set(facts, measured);
      if (measured === null && this.measures.get(planPath)?.facts === facts) this.measures.delete(planPath);
    };
    facts.then(settle, () => settle(null));
    this.measures.delete(planPath);
    this.measures.set(planPath, { stamp, facts });
    if (this.measures.size > MEASURES_KEPT) this.measures.delete(this.measures.keys().next().value!);
    return facts;
  }

  private storyAt(planPath: string, filename: string, large: LargeDiskFacts | null): PlanStory {
    const record = this.o.plans.find(filename);
    const onDisk = record?.filepath === planPath ? record : undefined;
    const key = `${this.o.history.version}\0${this.o.plans.version}\0${onDisk?.modified ?? '-'}\0${this.o.observed.of(planPath)?.versions.length ?? 0}\0${large?.sha256 ?? '-'}`;
    const kept = this.stories.get(planPath);
    if (kept?.key === key) return kept.story;
    const mtimeMs = onDisk === undefined ? 0 : Date.parse(onDisk.modified);
    const disk: DiskSource | null = onDisk === undefined ? null : large !== null ? { facts: large, mtimeMs } : readSmallDisk(planPath, mtimeMs);
    const slugSessions = candidateSlugs(filename).flatMap((slug) => this.o.sessions.sessionsForSlug(slug));
    const earlierPaths = [...this.goneRenames()].filter(([, to]) => to === planPath).map(([from]) => from);
    const story = planStory(planPath, { history: this.o.history, observed: this.o.observed, disk, slugSessions, earlierPaths });
    const last = story.versions.at(-1);
    const lastText = last === undefined ? undefined : story.contents.get(last.id);
    if (onDisk === undefined && lastText !== undefined) this.titles.set(planPath, planTitle(lastText, filename));
    this.forgetStory(planPath);
    let chars = 0;
    for (const text of story.contents.values()) chars += text.length;
    this.stories.set(planPath, { key, story, chars });
    this.storiesChars += chars;
    while (this.stories.size > 1 && (this.stories.size > STORIES_KEPT || this.storiesChars > (this.o.keptChars ?? STORIES_KEPT_CHARS))) {
      this.forgetStory(this.stories.keys().next().value!);
    }
    return story;
  }

  private forgetStory(planPath: string): void {
    const kept = this.stories.get(planPath);
    if (kept === undefined) return;
    this.stories.delete(planPath);
    this.storiesChars -= kept.chars;
  }

  /** How many stories are kept, and the characters of their versions (tests look). */
  keptStories(): { count: number; chars: number } {
    return { count: this.stories.size, chars: this.storiesChars };
  }

  /**
   * The text of one version of a plan's story, or null. A large disk version is its file, opened: still
   * the version when its stat is the one measured, or when measuring it again gives the same text.
   */
  async version(filename: string, id: string): Promise<VersionText | null> {
    const story = await this.story(filename);
    if (story === null) return null;
    const text = story.contents.get(id);
    if (text !== undefined) return { text };
    const planPath = this.o.plans.pathOf(filename);
    if (story.largeDisk?.id !== id || planPath === null) return null;
    const measured = story.largeDisk.facts;
    const opened = await openRegularFile(planPath, planLinks);
    if (opened === null) return null;
    try {
      if (stampOf(opened.stats) === measured.stamp) return { file: opened };
      const now = await inLargeReadTurn(() => measure(opened));
      if (now.sha256 === measured.sha256) return { file: opened };
    } catch {
      // Unreadable: answered like a version gone.
    }
    await opened.handle.close().catch(() => undefined);
    return null;
  }

  /** When Claude Code will delete a listed plan (see Retention). */
  retention(filename: string): Retention {
    const cleanupPeriodDays = this.cleanupPeriodDays();
    const plan = this.o.plans.find(filename);
    const shared = plan !== undefined && path.dirname(plan.filepath) === path.join(this.o.claudeDir, 'plans');
    const deletesAt = plan && shared ? new Date(Date.parse(plan.modified) + cleanupPeriodDays * 86_400_000).toISOString() : null;
    return { cleanupPeriodDays, deletesAt };
  }

  cleanupPeriodDays(): number {
    const value = readSettingsFileSync(path.join(this.o.claudeDir, 'settings.json'))?.cleanupPeriodDays;
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_CLEANUP_DAYS;
  }

  /**
   * Plans no longer on disk that the viewer saw or a transcript wrote (in a plans folder), newest first;
   * one per file name (the latest).
   */
  archive(): ArchivedPlan[] {
    return [...this.archivedEntries().values()]
      .map((entry) => ({ ...entry, title: this.archivedTitle(entry.filepath, entry.filename) }))
      .sort((a, b) => compareTimes(b.lastVersionAt, a.lastVersionAt) || (a.filename < b.filename ? -1 : 1));
  }

  /**
   * archive(), with what it is derived from computed a turn each first (every log's writes, then their
   * renames, then those still in effect): on a large home each is a long step, and together with the
   * archive's own they made one of a search index build's longest turns (docs/decisions.md, D57). A change
   * between the steps costs only the time: archive() derives again what it moved.
   */
  async archiveInSteps(pause: () => Promise<void>): Promise<ArchivedPlan[]> {
    this.o.history.writtenFiles();
    await pause();
    this.o.history.renames();
    await pause();
    this.goneRenames();
    await pause();
    return this.archive();
  }

  /** The archive without titles (a title may need the plan's story), by file name; kept until a source moves. */
  private archivedEntries(): Map<string, Omit<ArchivedPlan, 'title'>> {
    const key = this.sourcesKey();
    if (this.entriesKept?.key !== key) this.entriesKept = { key, entries: this.findArchived() };
    return this.entriesKept.entries;
  }

  /**
   * What the archive and the renames are derived from, as one key: each source bumps its version on a
   * change. The session index has none; the logs it reads are the history index's too, whose version moves
   * with each line they gain.
   */
  private sourcesKey(): string {
    return `${this.o.history.version}\0${this.o.plans.version}\0${this.o.observed.version}`;
  }

  private findArchived(): Map<string, Omit<ArchivedPlan, 'title'>> {
    const folders = new Set(this.o.plans.folderList);
    const listed = new Set(this.o.plans.list().map((p) => p.filepath));
    const candidates = new Map<string, { at: string | null; sessionId: string | null; deletedAt: string | null }>();
    const renamed = this.goneRenames();
    for (const [filepath, written] of this.o.history.writtenFiles()) {
      // A plan a hook renamed lives on under its new name (whose story it joins).
      if (renamed.has(filepath)) continue;
      if (folders.has(path.dirname(filepath)) && !listed.has(filepath)) candidates.set(filepath, { ...written, deletedAt: null });
    }
    for (const filepath of this.o.observed.paths()) {
      if (listed.has(filepath)) continue;
      const observed = this.o.observed.of(filepath)!;
      const last = observed.versions.at(-1)?.at ?? null;
      const known = candidates.get(filepath);
      candidates.set(filepath, {
        at: known === undefined || compareTimes(known.at, last) < 0 ? last : known.at,
        sessionId: known?.sessionId ?? null,
        deletedAt: observed.goneAt,
      });
    }
    const byName = new Map<string, Omit<ArchivedPlan, 'title'>>();
    for (const [filepath, c] of candidates) {
      const filename = path.basename(filepath);
      if (this.o.plans.find(filename) !== undefined) continue; // the name is listed from another folder
      const other = byName.get(filename);
      if (other !== undefined && compareTimes(other.lastVersionAt, c.at) >= 0) continue;
      const sessionId = c.sessionId ?? candidateSlugs(filename).map((slug) => this.o.sessions.sessionsForSlug(slug).at(-1)).find(Boolean) ?? null;
      const cwd = sessionId === null ? null : this.o.sessions.cwdForSession(sessionId);
      byName.set(filename, { filename, filepath, lastVersionAt: c.at, deletedAt: c.deletedAt, project: cwd === null ? null : projectName(cwd), sessionId });
    }
    return byName;
  }

  /** A session's card, or null when no log names it. */
  session(sessionId: string): SessionCard | null {
    const found = this.o.history.session(sessionId);
    if (found === null) return null;
    const { facts, logs } = found;
    const cwd = this.o.sessions.cwdForSession(sessionId);
    const plans = new Set<string>();
    for (const slug of this.o.sessions.slugsOfSession(sessionId)) {
      for (const p of this.o.plans.list()) if (candidateSlugs(p.filename).includes(slug)) plans.add(p.filename);
    }
    const listedPaths = new Map(this.o.plans.list().map((p) => [p.filepath, p.filename]));
    for (const [filepath] of this.o.history.writtenFiles()) {
      const filename = listedPaths.get(filepath);
      if (filename !== undefined && this.o.history.sessionsOf(filepath).has(sessionId)) plans.add(filename);
    }
    return {
      sessionId,
      title: titleOf(facts),
      firstPrompt: facts.firstPrompt,
      lastPrompt: facts.lastPrompt,
      gitBranch: facts.gitBranch,
      cwd,
      project: cwd === null ? null : projectName(cwd),
      version: facts.version,
      entrypoint: facts.entrypoint,
      firstAt: facts.firstAt,
      lastAt: facts.lastAt,
      costUsd: facts.costUsd,
      linesAdded: facts.linesAdded,
      linesRemoved: facts.linesRemoved,
      // Its subagents' logs, workflow runs' included (subagents/workflows/<run>/agent-<id>.jsonl).
      subagents: logs.filter((log) => logOwner(log).agentId !== null).map(subagentOf).sort((a, b) => (a.agentId < b.agentId ? -1 : 1)),
      plans: [...plans].sort(),
      unreadLines: this.o.history.unreadLines([sessionId]),
      resumeCommand: `cd ${shellQuote(cwd ?? '.')} && claude --resume ${sessionId}`,
      source: 'transcript',
      kept: logs.some((log) => this.o.sessions.isKept(log)),
    };
  }

  /** Renames (historyIndex.ts) whose old path is gone from disk and whose new one is listed. */
  private goneRenames(): Map<string, string> {
    const key = this.sourcesKey();
    if (this.renamesKept?.key !== key) this.renamesKept = { key, renames: this.findGoneRenames() };
    return this.renamesKept.renames;
  }

  private findGoneRenames(): Map<string, string> {
    const listed = new Set(this.o.plans.list().map((p) => p.filepath));
    const renames = new Map<string, string>();
    for (const [from, to] of this.o.history.renames()) if (!listed.has(from) && listed.has(to)) renames.set(from, to);
    return renames;
  }

  /**
   * An archived plan's title by the spec's rule, from its last version: the last content the viewer saw,
   * else the last version of its story once one was built (the search index builds them in the background;
   * building them here would read every archived plan's writes in one turn), else its file name.
   */
  archivedTitle(filepath: string, filename: string): string {
    const lastSeen = this.o.observed.of(filepath)?.versions.at(-1);
    if (lastSeen !== undefined) {
      // Kept by content: the archive is listed at every change, and reading each plan's content each time
      // is a file read per archived plan.
      const kept = this.seenTitles.get(lastSeen.sha);
      if (kept !== undefined) return kept;
      const seen = this.o.observed.content(lastSeen.sha)?.toString('utf8') ?? null;
      if (seen !== null) {
        const title = planTitle(seen, filename);
        if (this.seenTitles.size >= SEEN_TITLES_KEPT) this.seenTitles.clear();
        this.seenTitles.set(lastSeen.sha, title);
        return title;
      }
    }
    return this.titles.get(filepath) ?? titleFrom(null, filename);
  }
}

/**
 * A listed plan's file as its story's disk version, read by the plans folder's link rule, when it is small;
 * null when it is gone, or large (it grew since it was found small: the next story() measures it).
 */
function readSmallDisk(planPath: string, mtimeMs: number): DiskSource | null {
  return withRegularFileSync(planPath, (fd, stats) =>
    stats.size > LARGE_FILE_BYTES ? null : { text: readFileSync(fd).toString('utf8'), mtimeMs }, planLinks);
}

/** What tells a file's content changed without reading it: a write moves its mtime or size, a rename its inode. */
function stampOf(stats: Stats): string {
  return `${stats.mtimeMs}\0${stats.size}\0${stats.ino}`;
}

/** A large file's text facts, a chunk at a time; the caller holds a large-read turn. */
async function measure(opened: { handle: FileHandle; stats: Stats }): Promise<LargeDiskFacts> {
  return { ...(await textFacts(opened.handle, opened.stats.size)), stamp: stampOf(opened.stats) };
}

/** A session's title as Claude Code shows it: the latest /rename, else its AI title, else its summary. */
export function titleOf(facts: SessionFacts): string | null {
  return facts.customTitle ?? facts.aiTitle ?? facts.summary;
}

function subagentOf(log: string): SessionCard['subagents'][number] {
  const agentId = path.basename(log, '.jsonl').replace(/^agent-/, '');
  try {
    const meta = JSON.parse(readSmallTextSync(log.replace(/\.jsonl$/, '.meta.json'), META_MAX_BYTES) ?? 'null') as { agentType?: unknown; description?: unknown; toolUseId?: unknown } | null;
    if (meta === null || typeof meta !== 'object') throw new Error('no meta');
    const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
    return { agentId, type: text(meta.agentType), description: text(meta.description), toolUseId: text(meta.toolUseId) };
  } catch {
    return { agentId, type: null, description: null, toolUseId: null };
  }
}

/** `value` as one word for a POSIX shell. */
export function shellQuote(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
