// Memory files' histories, blame and archive: what the memory-history endpoints and MCP tools answer,
// from the transcripts' memory writes (the one reader's memoryWrites facts, never a log read again but
// for the lines of the asked file's writes), the contents the viewer observed of each memory file (kept
// under the cache dir, as plan history keeps plans'), and the file on disk, read through the memory store.
// A history and its blame are built once per state of their sources and kept for the few files read last,
// so a blame asked again costs a file read and a lookup.
import path from 'node:path';
import type { MemoryStore } from '../memoryStore.js';
import type { SessionIndex } from '../../sessions/sessionIndex.js';
import { compareTimes } from '../../history/historyIndex.js';
import { contentHash, type ObservedVersions } from '../../history/observedVersions.js';
import { LARGE_FILE_BYTES } from '../../largeFiles.js';
import { TimeSlicer } from '../../timeSlicer.js';
import { memoryPathParts } from '../../transcripts/extractors/memoryWrites.js';
import type { ArchivedMemory, BlameLine, MemoryVersion, SessionLoad } from '../../../contract/memoryHistory.js';
import { LoadedBy } from './loadedBy.js';
import { trustedNames } from '../changeNotice.js';
import { blameLines, splitLines } from './lineBlame.js';
import { memoryStory, type LoggedMemoryWrite, type MemoryStory } from './memoryStory.js';
import { ChangeRecorder } from './changeRecorder.js';
import { bulkGroups, type BulkGroup } from './bulkChanges.js';
import { describeBulk } from './bulkView.js';
import type { BulkChange } from '../../../contract/memoryChanges.js';

const HISTORIES_KEPT = 16;

export interface MemoryHistoryOptions {
  claudeDir: string;
  sessions: SessionIndex;
  memory: MemoryStore;
  /** Contents seen of memory files, by path (one ObservedVersions of its own, beside the plans'). */
  observed: ObservedVersions;
  /** Something worth saving changed (the observed versions' index). */
  changed: () => void;
}

export interface MemoryFileHistory {
  id: string;
  filepath: string;
  onDisk: boolean;
  versions: MemoryVersion[];
  contents: Map<string, string>;
}

interface Kept {
  key: string;
  history: MemoryFileHistory;
  blame: BlameLine[] | null;
}

/** Where a memory id points: a listed file, or one of the archive. */
interface Target {
  id: string;
  filepath: string;
  onDisk: boolean;
}

export class MemoryHistory {
  private readonly kept = new Map<string, Kept>();
  private writesKept: { version: number; byFile: Map<string, LoggedMemoryWrite[]> } | null = null;
  /** Each listed file's stat when last observed: an unchanged one is not read again. */
  private readonly stamps = new Map<string, string>();

  private readonly loads: LoadedBy;
  private readonly recorder: ChangeRecorder;

  constructor(private readonly o: MemoryHistoryOptions) {
    this.loads = new LoadedBy(o.sessions);
    this.recorder = new ChangeRecorder(o.observed);
  }

  /** The sessions a relevant_memories attachment handed the file to (loadedBy.ts). */
  loadedBy(filepath: string): SessionLoad[] {
    return this.loads.of(filepath);
  }

  /** A listed or archived memory file's versions, oldest first; null when the id names neither. */
  async history(id: string): Promise<MemoryFileHistory | null> {
    return (await this.keptFor(id))?.history ?? null;
  }

  async version(id: string, versionId: string): Promise<string | null> {
    return (await this.history(id))?.contents.get(versionId) ?? null;
  }

  /** For each line of the file's last version, the version that last wrote it. */
  async blame(id: string): Promise<{ id: string; versionId: string | null; lines: BlameLine[] } | null> {
    const kept = await this.keptFor(id);
    if (kept === null) return null;
    const { versions, contents } = kept.history;
    const last = versions.at(-1);
    kept.blame ??= blameOf(versions, contents);
    return { id, versionId: last?.id ?? null, lines: kept.blame };
  }

  /** Memory files gone from disk whose versions the viewer still has, newest first. */
  async archive(): Promise<ArchivedMemory[]> {
    return [...(await this.archived()).values()].map(({ observedPath: _, ...file }) => file)
      .sort((a, b) => compareTimes(b.lastVersionAt, a.lastVersionAt) || (a.id < b.id ? -1 : 1));
  }

  /**
   * Takes what is on disk of the memory files `only` names (every listed file when null: a start, or a
   * change nobody named) as observed versions, and marks the observed files no longer listed as gone.
   */
  async observeAll(only: ReadonlySet<string> | null = null): Promise<void> {
    if (!this.o.observed.keeping) return;
    const slicer = new TimeSlicer();
    const listing = await this.o.memory.list();
    const named = trustedNames(only, listing.entries);
    const listed = new Set<string>();
    for (const entry of listing.entries) {
      listed.add(entry.filepath);
      if (named !== null && !named.has(entry.filepath)) continue;
      await slicer.maybeYield();
      await this.observe(entry.id, entry.filepath, false);
    }
    for (const filepath of this.o.observed.paths()) {
      if (!listed.has(filepath)) {
        const before = this.recorder.lastSeen(filepath);
        if (this.o.observed.gone(filepath)) await this.recorder.gone(listing, filepath, before);
        this.stamps.delete(filepath);
      }
    }
    // A pass over some files only does not make the others' first look a change.
    if (named === null) this.recorder.passDone(listing);
    this.o.changed();
  }

  save(): void {
    this.o.observed.save();
  }

  /** Files memory care just wrote: their next change is the viewer's own, not one outside Claude Code. */
  viewerWrote(files: readonly { path: string; after: string | null }[]): void {
    this.recorder.expect(files);
  }

  /** The bulk changes outside any session the viewer saw, newest first (bulkChanges.ts). */
  bulkGroups(): BulkGroup[] {
    const byFile = this.writesByFile();
    return bulkGroups({
      changes: this.o.observed.changes(),
      writeTimes: (filepath) => (byFile.get(writesKey(filepath)) ?? []).map((w) => Date.parse(w.at ?? '')).filter((t) => !Number.isNaN(t)),
      content: (sha) => this.content(sha),
    });
  }

  /** The bulk changes with what the API shows of each file (bulkView.ts). */
  async bulkChanges(project?: string): Promise<BulkChange[]> {
    const listing = await this.o.memory.list();
    return describeBulk(this.bulkGroups(), {
      listing, project, lastSeen: (filepath) => this.recorder.lastSeen(filepath), history: (id) => this.history(id),
      kept: (sha) => this.o.observed.content(sha) !== null,
    });
  }

  /** What putting a bulk change back needs: its folder's source and each file's text before it; null when unknown. */
  async bulkRestore(changeId: string): Promise<{ sourceId: string; files: { file: string; before: string | null; pruned: boolean }[] } | null> {
    const group = this.bulkGroups().find((g) => g.id === changeId);
    const source = group === undefined ? undefined : (await this.o.memory.list()).sources.find((s) => s.dir === group.dir);
    if (group === undefined || source === undefined) return null;
    const files = group.files.map((f) => {
      const before = f.before === null ? null : this.content(f.before);
      return { file: f.file, before, pruned: f.before !== null && before === null };
    });
    return { sourceId: source.id, files };
  }

  /** A kept content's text, or null (pruned). */
  content(sha: string): string | null {
    return this.o.observed.content(sha)?.toString('utf8') ?? null;
  }

  private async keptFor(id: string): Promise<Kept | null> {
    const target = await this.target(id);
    if (target === null) return null;
    const disk = target.onDisk ? await this.observe(id, target.filepath) : null;
    const writes = this.writesByFile().get(writesKey(target.filepath)) ?? [];
    const key = `${this.o.sessions.factsVersion}\0${this.o.observed.version}\0${disk === null ? '-' : contentHash(disk.text)}\0${disk?.mtimeMs ?? 0}`;
    const known = this.kept.get(id);
    if (known?.key === key && known.history.filepath === target.filepath) return known;
    const observed = this.o.observed.of(target.filepath)?.versions ?? [];
    const story: MemoryStory = memoryStory({
      writes, observed, disk, content: (sha) => this.content(sha),
    });
    const kept: Kept = { key, history: { id, filepath: target.filepath, onDisk: target.onDisk, ...story }, blame: null };
    this.kept.delete(id);
    this.kept.set(id, kept);
    if (this.kept.size > HISTORIES_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return kept;
  }

  private async target(id: string): Promise<Target | null> {
    const entry = (await this.o.memory.list()).entries.find((e) => e.id === id);
    if (entry !== undefined) return { id, filepath: entry.filepath, onDisk: true };
    const archived = (await this.archived()).get(id);
    return archived === undefined ? null : { id, filepath: archived.observedPath ?? archived.filepath, onDisk: false };
  }

  /**
   * A listed file's text now, read through the memory store, and observed (kept when it is new); null when
   * it is gone or too large to hold, or, not `wanted`, when its stat has not moved since it was last observed.
   */
  private async observe(id: string, filepath: string, wanted = true): Promise<{ text: string; mtimeMs: number } | null> {
    const opened = await this.o.memory.open(id);
    if (opened === null) return null;
    try {
      const { stats } = opened;
      if (stats.size > LARGE_FILE_BYTES) return null;
      const stamp = `${stats.mtimeMs}\0${stats.size}\0${stats.ino}`;
      const changed = this.stamps.get(filepath) !== stamp;
      // A pass over every file reads only those whose stat moved.
      if (!changed && !wanted) return null;
      const bytes = await opened.handle.readFile();
      if (changed) {
        this.stamps.set(filepath, stamp);
        // Read, observed and compared with no await between: two passes at once record a change once.
        const before = this.recorder.lastSeen(filepath);
        const revived = (this.o.observed.of(filepath)?.goneAt ?? null) !== null;
        const added = this.o.observed.observe(filepath, bytes, stats.mtimeMs);
        const after = this.recorder.lastSeen(filepath);
        if ((added || revived) && after !== null) this.recorder.seen(await this.o.memory.list(), filepath, before, after, stats.mtimeMs);
        if (added || revived) this.o.changed();
      }
      return { text: bytes.toString('utf8'), mtimeMs: stats.mtimeMs };
    } catch {
      return null;
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }

  /** Every log's memory writes by file (`<key>\0<file>`, or the path for a folder elsewhere), oldest first; kept until the facts change. */
  private writesByFile(): Map<string, LoggedMemoryWrite[]> {
    const version = this.o.sessions.factsVersion;
    if (this.writesKept?.version === version) return this.writesKept.byFile;
    const byFile = new Map<string, LoggedMemoryWrite[]>();
    for (const [log, facts] of this.o.sessions.logs()) {
      for (const write of facts.memory.writes) {
        const key = `${write.key}\0${write.file}`;
        const list = byFile.get(key) ?? [];
        list.push({ ...write, log });
        byFile.set(key, list);
      }
    }
    for (const list of byFile.values()) {
      list.sort((a, b) => compareTimes(a.at, b.at) || (a.log < b.log ? -1 : a.log > b.log ? 1 : 0) || a.line.start - b.line.start);
    }
    this.writesKept = { version, byFile };
    return byFile;
  }

  /** Files a transcript wrote or the viewer saw that are not listed now, by the id they had. */
  private async archived(): Promise<Map<string, ArchivedMemory & { observedPath: string | null }>> {
    const listing = await this.o.memory.list();
    const listedIds = new Set(listing.entries.map((e) => e.id));
    const listedParts = new Set(listing.entries.map((e) => memoryPathParts(e.filepath)).filter((p) => p !== null).map((p) => `${p.key}\0${p.file}`));
    const files = new Map<string, ArchivedMemory & { observedPath: string | null }>();
    for (const [key, writes] of this.writesByFile()) {
      if (listedParts.has(key)) continue;
      const last = writes.at(-1)!;
      const id = `${last.key}/${last.file}`;
      if (listedIds.has(id)) continue;
      files.set(id, {
        id, filename: last.file, filepath: path.join(this.o.claudeDir, 'projects', last.key, 'memory', ...last.file.split('/')),
        lastVersionAt: last.at, deletedAt: null, sessionId: last.sessionId, observedPath: null,
      });
    }
    for (const filepath of this.o.observed.paths()) {
      const seen = this.o.observed.of(filepath)!;
      const parts = memoryPathParts(filepath);
      if (seen.goneAt === null || parts === null) continue;
      const id = `${parts.key}/${parts.file}`;
      if (listedIds.has(id) || listedParts.has(`${parts.key}\0${parts.file}`)) continue;
      const known = files.get(id);
      const lastSeen = seen.versions.at(-1)?.at ?? null;
      files.set(id, {
        id, filename: parts.file, filepath, deletedAt: seen.goneAt, sessionId: known?.sessionId ?? null, observedPath: filepath,
        lastVersionAt: known === undefined || compareTimes(known.lastVersionAt, lastSeen) < 0 ? lastSeen : known.lastVersionAt,
      });
    }
    return files;
  }
}

/** A file's key in writesByFile: `<key>\0<file>` for a project's memory folder, else its path. */
function writesKey(filepath: string): string {
  const parts = memoryPathParts(filepath);
  return parts === null ? filepath : `${parts.key}\0${parts.file}`;
}

function blameOf(versions: readonly MemoryVersion[], contents: ReadonlyMap<string, string>): BlameLine[] {
  const texts = versions.map((v) => contents.get(v.id) ?? '');
  const authors = blameLines(texts);
  const lines = splitLines(texts.at(-1) ?? '');
  return lines.map((text, i) => {
    const v = versions[authors[i]!]!;
    return { line: i + 1, text, versionId: v.id, source: v.source, at: v.at, sessionId: v.sessionId, prompt: v.prompt };
  });
}
