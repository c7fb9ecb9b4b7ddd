// Literal, case-insensitive search of plan contents (GET /api/search): a function of the listed records.
// Each record's folded text and trigram filter are prepared in the background, in time slices, so that a
// rare word rules out nearly every plan without reading its text; a search before that is exact, only slower.
import { foldCase } from '../fold.js';
import { openRegularFile } from '../files.js';
import { largeFileContains, textPieces } from '../largeFiles.js';
import { buildTrigramBloom, buildTrigramBloomInPieces, mayContain, queryTrigrams } from '../search/trigramBloom.js';
import { nextSliceTurn, SLICE_MS } from '../timeSlicer.js';
import { foldedText, foldRecord, isLargePlan, planLinks, type PlanFileRecord } from './planFile.js';

/** File names of `records` whose content contains q, case-insensitively, in their order. */
export async function searchPlans(records: readonly PlanFileRecord[], q: string): Promise<string[]> {
  if (q.length === 0) return [];
  const needle = foldCase(q);
  const trigrams = queryTrigrams(needle);
  // The kept texts are the UTF-8 of well-formed strings: a needle's bytes occur in them exactly where the
  // needle occurs in the text. A needle with a lone surrogate, which UTF-8 cannot hold, is looked for in
  // the decoded text instead (it can match half of a pair there, as a string search does).
  const needleBytes = Buffer.from(needle, 'utf8');
  const contains = needleBytes.toString('utf8') === needle
    ? (folded: Buffer): boolean => folded.includes(needleBytes)
    : (folded: Buffer): boolean => folded.toString('utf8').includes(needle);
  const hits: string[] = [];
  for (const record of records) {
    if (record.bloom && !mayContain(record.bloom, trigrams)) continue;
    // A large plan keeps no text (see largeFiles.ts): it is read again, a chunk at a time.
    if (isLargePlan(record)) {
      if (await largeFileContains(record.filepath, planLinks, needle)) hits.push(record.filename);
      continue;
    }
    if (contains(foldedText(record))) hits.push(record.filename);
  }
  return hits;
}

function needsFilter(record: PlanFileRecord): boolean {
  return record.bloom === null;
}

/**
 * Prepares every record that is not ready: folds its text (reading it first when it was restored from the
 * cache) and builds its trigram filter, in slices of ~10 ms that take turns with other background work (see
 * timeSlicer.ts). The slices keep the process alive until stop(): an unref'd immediate only ran when
 * something else woke the event loop, so on an idle server the filters took minutes instead of ~0.5 s.
 */
export class SearchPreparation {
  private scheduled = false;
  private started: boolean;
  private stopped = false;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly records: () => Iterable<PlanFileRecord>, options: { deferred?: boolean } = {}) {
    this.started = !options.deferred;
  }

  /** Lets a deferred preparation begin. */
  start(): void {
    this.started = true;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
  }

  get ready(): boolean {
    for (const record of this.records()) if (needsFilter(record)) return false;
    return true;
  }

  /** Resolves once every record has its filter (at once when none lacks one). */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  /** Something changed: prepare what is not ready yet (a no-op when all are). */
  schedule(): void {
    if (this.scheduled || !this.started || this.stopped) return;
    this.scheduled = true;
    void nextSliceTurn().then(() => {
      this.scheduled = false;
      if (this.stopped) return;
      const deadline = performance.now() + SLICE_MS;
      let large: PlanFileRecord | null = null;
      for (const record of this.records()) {
        if (!needsFilter(record)) continue;
        // A large plan's filter is built from its file read a chunk at a time (it keeps no text), after
        // the others.
        if (isLargePlan(record)) {
          large ??= record;
          continue;
        }
        record.bloom = buildTrigramBloom(record.folded === null ? foldRecord(record) : record.folded.toString('utf8'));
        if (performance.now() > deadline) return this.schedule();
      }
      if (large !== null) return void this.filterLarge(large).finally(() => this.schedule());
      for (const resolve of this.waiters.splice(0)) resolve();
    });
  }

  private async filterLarge(record: PlanFileRecord): Promise<void> {
    this.scheduled = true; // one large plan at a time; schedule() goes on when it is done
    try {
      const opened = await openRegularFile(record.filepath, planLinks);
      if (opened === null) {
        record.bloom = EVERYTHING;
        return;
      }
      try {
        const pieces = foldedPieces(textPieces(opened.handle, opened.stats.size), () => this.stopped);
        const bloom = await buildTrigramBloomInPieces(pieces, opened.stats.size);
        // Stopped half-way, the filter lacks the rest of the text: it must not rule anything out.
        if (!this.stopped) record.bloom = bloom;
      } finally {
        await opened.handle.close().catch(() => undefined);
      }
    } catch {
      record.bloom = EVERYTHING; // unreadable now: every search reads it, as before
    } finally {
      this.scheduled = false;
    }
  }
}

/** A filter that says "maybe" to everything: the plan is read by every search. */
const EVERYTHING = { bits: new Uint32Array(8).fill(0xffffffff), mask: 255 };

async function* foldedPieces(pieces: AsyncIterable<string>, stopped: () => boolean): AsyncGenerator<string> {
  for await (const piece of pieces) {
    if (stopped()) return;
    yield foldCase(piece);
  }
}
