// The ranked search as the service runs it: a FindIndex kept in step with the stores (plans, memory
// entries, archived plans, sessions) and the answer to a query, snippets included. The index is built in the
// background after start, in time slices, while queries are answered from what it holds so far, and each
// change the watchers report is taken in as it comes. It is kept in the cache between runs (savedIndex.ts):
// a start restores it, and its first pass then only checks each document's stamp. What each part holds now
// comes from partDocs.ts.
import type { HistoryKeeper } from '../history/historyKeeper.js';
import type { PartName } from '../transcripts/savedFacts.js';
import type { MemoryStore } from '../memory/memoryStore.js';
import { PendingNames } from '../pendingNames.js';
import type { PlanChange, PlanStore } from '../plans/planStore.js';
import { TimeSlicer } from '../timeSlicer.js';
import type { Logger } from '../types.js';
import { best, BODY_CHARS, bodyOf, compareHits, docKey, FindIndex, type FindDoc, type RankedHit } from './findIndex.js';
import { termsInPieces } from './terms.js';
import { hasFilters, parseFindQuery, type FindKind } from './query.js';
import { containsPhrase, cutSnippets, MAX_SNIPPETS, SCAN_CHARS, settledSnippets, type MatchedGroups, type Pieces, type Snippet } from './snippets.js';
import { KeptTexts } from './keptTexts.js';
import { decodeIndex, encodeIndex } from './savedIndex.js';
import { memoryDocs, planDocs, sessionDocs, sessionTitle, type SessionSource } from './partDocs.js';

export { FindQueryError, isFindQueryError } from './query.js';
export type { Snippet } from './snippets.js';

export interface FindResult {
  kind: FindKind;
  id: string;
  title: string;
  project: string | null;
  modified: string;
  score: number;
  snippets: Snippet[];
}

export interface FindAnswer {
  total: number;
  results: FindResult[];
}

export interface FindPage {
  limit?: number;
  offset?: number;
  /** Aborts a query whose asker has gone (its work stops at the next document it would read). */
  signal?: AbortSignal;
}

export interface FinderSources {
  plans: PlanStore;
  memory: MemoryStore;
  history: HistoryKeeper;
  logger: Logger;
  /** Work that goes first: the first pass waits for it (`restored`: the pass only checks a saved index). */
  after?: (restored: boolean) => Promise<void>;
  /** Resolves once the transcripts' facts are all at hand: the sessions and the archive wait for it. */
  sessionsReady?: () => Promise<void>;
  /** Where the index is kept between runs (none: it is built at every start). */
  saved?: SavedIndexFile | null;
  /** Hears the first build's steps as they end (PMV_TRACE). */
  trace?: ((phase: string) => void) | undefined;
}

/** The cache file the index is kept in (domain/cacheFile.ts). */
export interface SavedIndexFile {
  /** Its bytes (read on the thread pool), or null. */
  read(): Promise<Buffer | null>;
  /** Writes these pieces, in order, as the file. */
  write(pieces: readonly Buffer[]): Promise<true | string>;
}

type Part = 'plans' | 'memory' | 'sessions' | 'archive' | 'save';
const PARTS: readonly Part[] = ['plans', 'memory', 'sessions', 'archive'];
/** The order updates are taken in: the index is saved once the rest is up to date. */
const ORDER: readonly Part[] = [...PARTS, 'save'];
/** How long after a change the index is saved again (a save writes the whole index). */
const SAVE_DELAY_MS = 60_000;
/**
 * Bytes of a plan or memory file read for a result's snippets: as many as snippets look at (SCAN_CHARS)
 * when the text is ASCII; a text of multi-byte characters gets its snippets from a shorter start. A page of
 * results reads its files at every query, and a multi-MB plan matches most words.
 */
const SNIPPET_READ_BYTES = SCAN_CHARS;
/**
 * How long one slice of the index's upkeep may hold the event loop: shorter than other work's, since its
 * slices share turns with what does not take slices (I/O callbacks, the collector) (docs/decisions.md, D57).
 */
const INDEX_SLICE_MS = 5;
/** Characters of a long body folded into terms per piece (see put()). */
const TERMS_PIECE_CHARS = 32 * 1024;
/** Bytes of a file read first for its snippets (see snippets()); most files' snippets are settled by them. */
const SNIPPET_FIRST_BYTES = 16 * 1024;
const ARCHIVED = 'archive\0';
/**
 * The parts of the logs' saved facts the sessions and the archive are indexed from (the session cards; the
 * plan writes and plan-mode events the archive's stories are made of): a restart parses them first.
 */
export const SEARCH_PARTS: readonly PartName[] = ['cards', 'plans'];
/** How an archived plan's stamp ends when its versions' text is indexed. */
const WITH_TEXT = '\0text';
/** Archived plans (newest first) whose versions' text is indexed. */
const ARCHIVED_WITH_TEXT = 200;
/** The bound of the archived plans' texts kept for snippets (see KeptTexts). */
const ARCHIVED_TEXTS_KEPT_CHARS = 4 * 1024 * 1024;

/** A text snippets are cut from: a file's start (`whole`: the file ends there), an archived version, a prompt. */
interface TextPart {
  /** A file's head comes in pieces (files.ts). */
  text: string | Pieces;
  whole?: boolean;
  /** A session's logs: the text is a prompt or title found in one of them. */
  log?: string[];
  archived?: boolean;
}


export class Finder {
  private index = new FindIndex();
  /** What each document was built from (a stamp per key): unchanged documents are not read again. */
  private readonly stamps = new Map<string, string>();
  private sessionSources = new Map<string, SessionSource>();
  /** archivedTexts() by file name, with what they were built from. */
  private readonly archivedKept = new KeptTexts(ARCHIVED_TEXTS_KEPT_CHARS);
  private readonly dirty = new Set<Part>();
  private running: Promise<void> | null = null;
  private started = false;
  private stopped = false;
  private markBuilt: () => void = () => undefined;
  /** Resolves once every part has been indexed once. */
  readonly built = new Promise<void>((resolve) => {
    this.markBuilt = resolve;
  });
  private firstPass = true;
  /** The index was restored from the cache at start. */
  private restored = false;
  /** Documents were put or removed since the index was last saved. */
  private unsaved = false;
  private saveTimer: NodeJS.Timeout | null = null;
  /** The save under way: a stop waits for it, so a short-lived process keeps what it built. */
  private saving: Promise<void> | null = null;
  /** The plans named by notices since the plans were last synced; null: every plan is compared. */
  private readonly plansPending = new PendingNames();
  /** Memory files named by change notices since the last memory pass; null: every file's stat is compared. */
  private readonly memoryPending = new PendingNames();

  constructor(private readonly o: FinderSources) {}

  /** Starts the first build (once): until it ends, queries see what is indexed so far. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const part of PARTS) this.dirty.add(part);
    this.o.history.index.onChange(() => this.changed('sessions', 'archive'));
    this.schedule();
  }

  /**
   * Stops the upkeep. A change waiting for its save is saved now when the index is up to date (not while an
   * update runs: a stop does not wait for a build).
   */
  async stop(): Promise<void> {
    const unsavedChange = this.saveTimer !== null;
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.stopped = true;
    if (unsavedChange && this.running === null && this.dirty.size === 0) await this.save(new TimeSlicer(INDEX_SLICE_MS));
    await this.saving;
  }

  /**
   * Takes the index the last run saved, when there is one of these rules (in slices: nothing is indexed
   * yet, and queries meanwhile see an empty index); a broken one is set aside and the index built again.
   */
  private async restore(slicer: TimeSlicer): Promise<void> {
    try {
      const bytes = (await this.o.saved?.read()) ?? null;
      if (bytes === null) return;
      await slicer.pause();
      const saved = await decodeIndex(bytes, () => slicer.pause());
      if (saved === null) return;
      this.index = await FindIndex.restore(saved.dump, () => slicer.pause());
      for (const [key, stamp] of saved.stamps) if (this.index.has(key)) this.stamps.set(key, stamp);
      this.restored = true;
    } catch (error) {
      this.o.logger.warn(`search index: the saved index is not usable, it is built again (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  /** Writes the index and its stamps to the cache (inside drain(): nothing changes them meanwhile). */
  private save(slicer: TimeSlicer): Promise<void> {
    if (!this.unsaved || this.o.saved == null) return Promise.resolve();
    this.saving = this.saveNow(this.o.saved, slicer).finally(() => (this.saving = null));
    return this.saving;
  }

  private async saveNow(file: SavedIndexFile, slicer: TimeSlicer): Promise<void> {
    this.unsaved = false;
    const stamps = [...this.stamps];
    const dump = await this.index.dump(() => slicer.maybeYield());
    await slicer.pause();
    const written = await file.write(await encodeIndex({ dump, stamps }, () => slicer.maybeYield()));
    if (written !== true) this.o.logger.warn(`search index: not saved (${written})`);
  }

  /** A save after a change: at once after the first pass, else within SAVE_DELAY_MS. */
  private saveLater(): void {
    if (!this.unsaved || this.o.saved == null || this.saveTimer !== null || this.stopped) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.changed('save');
    }, this.firstPass ? 0 : SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** The stores report a change: those parts are brought up to date next (at once when idle), every document compared. */
  changed(...parts: Part[]): void {
    if (parts.includes('plans')) this.plansPending.add(null);
    if (parts.includes('memory')) this.memoryPending.add(null);
    this.mark(parts);
  }

  /**
   * The memory reader's notice: the files it names (absolute paths) have their stat compared again; the
   * others keep their stamps while the listing shows them unchanged. Null names none: every file is compared.
   */
  memoryChanged(files: readonly string[] | null): void {
    this.memoryPending.add(files);
    this.mark(['memory']);
  }

  /**
   * The plan reader's notice: only the plans it names are looked at again. A notice naming none (the
   * sessions' links moved: any plan's project may have) compares every plan.
   */
  plansChanged(change: PlanChange): void {
    const names = [...change.changed, ...change.removed];
    if (names.length === 0) return this.changed('plans');
    this.plansPending.add(names);
    this.mark(['plans']);
  }

  private mark(parts: readonly Part[]): void {
    for (const part of parts) this.dirty.add(part);
    if (this.started) this.schedule();
  }

  /** Resolves when no update is pending or running. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Documents indexed, and the serialized index's size (the benchmark reports them). */
  stats(): { documents: number; serializedBytes: number } {
    return { documents: this.index.size, serializedBytes: this.index.serializedBytes() };
  }

  /** The ranked answer to `q` (see query.ts); throws FindQueryError for a query that cannot mean anything. */
  async find(q: string, page: FindPage = {}): Promise<FindAnswer> {
    const query = parseFindQuery(q);
    const limit = page.limit ?? 20;
    const offset = page.offset ?? 0;
    if (query.terms.length === 0 && !hasFilters(query)) return { total: 0, results: [] };
    const found = this.index.find(query);
    let hits = found.hits;
    let shown: RankedHit[];
    if (query.phrases.length > 0) {
      // Checked in order, so the page is the first of those kept.
      hits = await this.withPhrases(hits.sort(compareHits), query.phrases, page.signal);
      shown = hits.slice(offset, offset + limit);
    } else {
      shown = best(hits, offset + limit).slice(offset);
    }
    const results: FindResult[] = [];
    for (const hit of shown) {
      const { kind, id, title, project, modified } = hit.entry;
      const snippets = await this.snippets(hit, found.groups(hit));
      results.push({ kind, id, title, project, modified, score: hit.score, snippets });
    }
    return { total: hits.length, results };
  }

  /**
   * The hits whose text holds every phrase. Each hit's text is read (the index keeps no word positions): its
   * start first, the rest only when the phrases are not all in it; in time slices, since a phrase of common
   * words has thousands of hits on a large home (docs/decisions.md, D36), and only while someone asks.
   */
  private async withPhrases(hits: RankedHit[], phrases: readonly string[][], signal: AbortSignal | undefined): Promise<RankedHit[]> {
    const slicer = new TimeSlicer();
    const holds = (parts: TextPart[] | null): boolean => {
      if (parts === null) return false;
      const texts = parts.map((part) => joined(part.text));
      return phrases.every((phrase) => texts.some((text) => containsPhrase(text, phrase)));
    };
    const kept: RankedHit[] = [];
    for (const hit of hits) {
      await slicer.maybeYield();
      signal?.throwIfAborted();
      const head = await this.textOf(hit, SNIPPET_FIRST_BYTES);
      if (holds(head) || (startOnly(head) && holds(await this.textOf(hit)))) kept.push(hit);
    }
    return kept;
  }

  /**
   * The texts a hit's snippets are cut from: a file's content, an archived plan's versions (newest first),
   * or a session's title and prompts.
   */
  private async textOf(hit: RankedHit, bytes = SNIPPET_READ_BYTES): Promise<TextPart[] | null> {
    const { kind, id, title } = hit.entry;
    if (kind === 'plan') {
      const head = this.o.plans.headSync(id, bytes);
      if (head !== null) return [{ text: head.pieces, whole: head.whole }];
      // An archived plan indexed by its title and name only (see syncArchive) was found by those.
      const texts = this.stamps.get(docKey('plan', id))?.endsWith(WITH_TEXT) === true ? this.archivedTexts(id) : [];
      return [...texts.map((text) => ({ text, archived: true })), { text: `${title}\n${id}` }];
    }
    if (kind === 'memory') {
      const head = await this.o.memory.head(id, bytes);
      return head === null ? null : [{ text: head.pieces, whole: head.whole }];
    }
    const source = this.sessionSources.get(id);
    if (source === undefined) return null;
    const f = source.facts;
    return [sessionTitle(f), f.firstPrompt, f.lastPrompt].filter((t): t is string => t !== null).map((text) => ({ text, log: source.logs }));
  }

  private async snippets(hit: RankedHit, groups: MatchedGroups): Promise<Snippet[]> {
    let parts = await this.textOf(hit, SNIPPET_FIRST_BYTES);
    if (parts === null) return [];
    // A file's start usually settles its snippets: the rest of it is read only when it does not.
    if (startOnly(parts)) {
      const settled = settledSnippets(parts[0]!.text, groups);
      if (settled !== null) return settled;
      parts = await this.textOf(hit);
      if (parts === null) return [];
    }
    const out: Snippet[] = [];
    for (const part of parts) {
      if (out.length >= MAX_SNIPPETS) break;
      // A plan found only by its archived title or file name has no text to point into.
      if (hit.entry.kind === 'plan' && part.archived !== true && this.o.plans.pathOf(hit.entry.id) === null) break;
      const found = cutSnippets(part.text, groups);
      if (part.archived === true) {
        // Lines are the newest version's that has a match: snippets never mix two versions' line numbers.
        if (found.length === 0) continue;
        out.push(...found);
        break;
      }
      if (part.log === undefined) {
        out.push(...found);
        continue;
      }
      // A session's snippet points at the log line the prompt or title came from (noted when the log was read).
      if (found.length === 0) continue;
      const at = this.o.history.index.lineOf(hit.entry.id, part.log, joined(part.text));
      if (at !== null && !out.some((s) => s.line === at.line)) out.push({ ...found[0]!, line: at.line });
    }
    return out.slice(0, MAX_SNIPPETS).sort((a, b) => a.line - b.line);
  }

  private schedule(): void {
    if (this.running !== null || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.dirty.size > 0 && !this.stopped) this.schedule();
    });
  }

  private async drain(): Promise<void> {
    const slicer = new TimeSlicer(INDEX_SLICE_MS);
    if (this.firstPass) {
      await this.restore(slicer);
      this.o.trace?.(this.restored ? 'find index restored' : 'find index: nothing restored');
      await this.o.after?.(this.restored);
    }
    while (this.dirty.size > 0 && !this.stopped) {
      const part = ORDER.find((p) => this.dirty.has(p))!;
      this.dirty.delete(part);
      try {
        if (part === 'plans') await this.syncPlans(slicer);
        else if (part === 'memory') await this.syncMemory(slicer);
        else if (part === 'save') await this.save(slicer);
        else {
          await this.o.sessionsReady?.();
          if (part === 'sessions') await this.syncSessions(slicer);
          else await this.syncArchive(slicer);
        }
        if (this.firstPass) this.o.trace?.(`find index: ${part} done`);
      } catch (error) {
        this.o.logger.warn(`search index: ${part} not updated: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (this.firstPass && !this.stopped) {
      this.firstPass = false;
      this.markBuilt();
      // A process may be short-lived (an MCP server per Claude Code session): the first build is saved now.
      await this.save(slicer);
    }
    this.saveLater();
  }

  /** Puts the documents of one part that changed, removes those gone. */
  private async sync(owns: (key: string, stamp: string) => boolean, slicer: TimeSlicer, current: Map<string, { stamp: string; doc: () => Promise<FindDoc | null> }>): Promise<void> {
    for (const [key, item] of current) {
      if (this.stopped) return;
      if (this.stamps.get(key) === item.stamp && this.index.has(key)) continue;
      const doc = await item.doc();
      if (doc === null) {
        this.forget(key);
        continue;
      }
      await this.put(doc, slicer);
      this.stamps.set(key, item.stamp);
      await slicer.maybeYield();
    }
    for (const [key, stamp] of [...this.stamps]) {
      if (owns(key, stamp) && !current.has(key)) this.forget(key);
    }
  }

  /** Puts a document; a long body is folded into its terms, and they are looked up, a piece at a time between slices. */
  private async put(doc: FindDoc, slicer: TimeSlicer): Promise<void> {
    const body = bodyOf(doc);
    const bodyTerms = body.length > TERMS_PIECE_CHARS ? await termsInPieces(body, TERMS_PIECE_CHARS, () => slicer.maybeYield()) : undefined;
    await this.index.put(doc, bodyTerms, () => slicer.due(), () => slicer.pause());
    this.unsaved = true;
  }

  private forget(key: string): void {
    if (this.index.has(key)) this.unsaved = true;
    this.index.remove(key);
    this.stamps.delete(key);
  }

  private async syncPlans(slicer: TimeSlicer): Promise<void> {
    const named = this.plansPending.take();
    const { current, found } = await planDocs(this.o.plans, named, slicer);
    // Archived plans share the plan keys (a plan back on disk replaces its archived document); they are the
    // archive part's to remove.
    const owned = (key: string, stamp: string): boolean => key.startsWith('plan:') && !stamp.startsWith(ARCHIVED);
    await this.sync(named === null ? owned : (key, stamp) => named.has(key.slice('plan:'.length)) && owned(key, stamp), slicer, current);
    // A plan gone from disk may be an archived one now.
    if (named === null || found < named.size) this.dirty.add('archive');
  }

  private async syncArchive(slicer: TimeSlicer): Promise<void> {
    // The archive's list is long steps on a large home: they take turns of their own, and the plans are
    // put from the next one (docs/decisions.md, D36, D57).
    await slicer.pause();
    const archived = await this.o.history.stories.archiveInSteps(() => slicer.pause());
    await slicer.pause();
    for (const [rank, plan] of archived.entries()) {
      const key = docKey('plan', plan.filename);
      // The newest archived plans are found by their text; older ones by title and name (a home where
      // plans come and go by the thousand would otherwise rebuild a story per plan at each change).
      const withText = rank < ARCHIVED_WITH_TEXT;
      const stamp = `${ARCHIVED}${plan.lastVersionAt}\0${plan.project}${withText ? WITH_TEXT : ''}`;
      if (this.o.plans.pathOf(plan.filename) !== null || this.stamps.get(key) === stamp) continue;
      // One plan's story per slice; once built it also gives the archive the plan's title. A story is one
      // long step (its sessions' events): it takes a turn of its own, neither on the rest of a used slice
      // nor beside the put that follows, which together made the longest stalls of a build (D47).
      let body = '';
      if (withText) {
        await slicer.pause();
        body = this.archivedTexts(plan.filename).join('\n');
        await slicer.pause();
      }
      const title = this.o.history.stories.archivedTitle(plan.filepath, plan.filename);
      await this.put({
        kind: 'plan', id: plan.filename, title, name: plan.filename, description: '', body, project: plan.project,
        modified: plan.lastVersionAt ?? plan.deletedAt ?? new Date(0).toISOString(), type: null,
      }, slicer);
      this.stamps.set(key, stamp);
      await slicer.maybeYield();
    }
    const names = new Set(archived.map((p) => p.filename));
    for (const [key, stamp] of [...this.stamps]) {
      if (stamp.startsWith(ARCHIVED) && !names.has(key.slice('plan:'.length))) this.forget(key);
    }
  }

  /**
   * An archived plan's distinct texts, newest version first, up to what the index takes of a body: what
   * the plan said when it left the disk, then what earlier versions said and later ones dropped.
   */
  private archivedTexts(filename: string): string[] {
    // A story moves only with its sources: the transcripts, the plan catalogue and the observed contents.
    const key = `${this.o.history.index.version}\0${this.o.plans.version}\0${this.o.history.observed.version}`;
    const kept = this.archivedKept.get(filename, key);
    if (kept !== undefined) return kept;
    const texts = this.buildArchivedTexts(filename);
    this.archivedKept.keep(filename, key, texts);
    return texts;
  }

  private buildArchivedTexts(filename: string): string[] {
    const story = this.o.history.stories.storyNow(filename);
    if (story === null) return [];
    const texts: string[] = [];
    const seen = new Set<string>();
    let chars = 0;
    for (let i = story.versions.length - 1; i >= 0 && chars < BODY_CHARS; i--) {
      const text = story.contents.get(story.versions[i]!.id);
      if (text === undefined || seen.has(text)) continue;
      seen.add(text);
      // Only what the index holds (bodyOf: the first BODY_CHARS of the texts joined) is kept: snippets
      // point into that, and a multi-MB version stays small enough to keep (archivedKept).
      const kept = text.length > BODY_CHARS - chars ? text.slice(0, BODY_CHARS - chars) : text;
      texts.push(kept);
      chars += kept.length;
    }
    return texts;
  }

  private async syncMemory(slicer: TimeSlicer): Promise<void> {
    const current = await memoryDocs(this.o.memory, this.memoryPending.take(), (key) => this.stamps.get(key), slicer);
    await this.sync((key) => key.startsWith('memory:'), slicer, current);
  }

  private async syncSessions(slicer: TimeSlicer): Promise<void> {
    const { current, sources } = await sessionDocs(this.o.history.index, slicer);
    // Swapped in whole: a query between two slices sees every session's source, old or new.
    this.sessionSources = sources;
    await this.sync((key) => key.startsWith('session:'), slicer, current);
  }
}

/** A part's text in one string (a file's head comes in pieces: see files.ts). */
function joined(text: string | Pieces): string {
  return typeof text === 'string' ? text : text.join('');
}

/** Whether `parts` are a file's start only (textOf() with fewer bytes than the file has): the rest can be read. */
function startOnly(parts: TextPart[] | null): boolean {
  return parts?.length === 1 && parts[0]!.whole === false;
}
