// The find index as the cache keeps it between runs, so a fresh process (Claude Code starts
// `plan-memory-viewer mcp` in every session) answers its first complete search from it instead of reading
// and folding every plan again (docs/decisions.md, D62). One binary file: a JSON header (the rules it was
// derived under, each document's stamp and listing facts, the terms) and then the numbers as 32-bit words
// (the fields' lengths, each term's postings). Whatever does not hold together is refused whole.
import { CacheFile } from '../cacheFile.js';
import { DERIVATION_VERSION } from '../derivation.js';
import { docKey, type FindEntry } from './findIndex.js';
import type { SavedIndexFile } from './finder.js';
import type { FindKind } from './query.js';
import type { RankDump } from './rankIndex.js';

/**
 * The rules of the find index itself (the words a text is cut into, the fields and what fills them): bump
 * it when they change, so no run restores an index another version built.
 */
export const FIND_RULES_VERSION = 1;
const MAGIC = 0x464d5650; // "PVMF"
const FIELDS = 5;
const KINDS: readonly FindKind[] = ['plan', 'memory', 'session'];

export interface SavedIndex {
  dump: RankDump<FindEntry>;
  /** What each document was built from (Finder's stamps), by key. */
  stamps: [key: string, stamp: string][];
}

/** The JSON blocks the file starts with, in this order (each parsed on its own turn). */
interface Blocks {
  meta: { derivation: number; rules: number };
  stamps: [string, string][];
  entries: [FindKind, string, string, string | null, string, string | null][];
  terms: string[];
}
const BLOCKS = ['meta', 'stamps', 'entries', 'terms'] as const;

/** A saved index larger than this is not read (a home ten times the benchmark's saves ~100 MB). */
const MAX_SAVED_BYTES = 512 * 1024 * 1024;

/** The cache file of the index of the home `claudeDir` (`find-<hash>.bin` in the cache dir). */
export function savedIndexFile(cacheDir: string, claudeDir: string): SavedIndexFile {
  const file = new CacheFile(cacheDir, 'find', claudeDir, MAX_SAVED_BYTES);
  return { read: () => file.readBytesAsync('bin'), write: (pieces) => file.writeBytes('bin', pieces) };
}

/** Array elements per piece of a JSON block, and postings per pause while the numbers are copied. */
const JSON_PIECE_ITEMS = 8192;
const POSTINGS_PER_PAUSE = 16_384;

/**
 * The file's bytes, in pieces (written one after another, never joined): the magic word, then each JSON
 * block as its byte length and its UTF-8 padded to a 4-byte boundary, then the numbers: the fields'
 * lengths (FIELDS words per document), then for each term and field a count of pairs and the (slot,
 * count) pairs. `between` is awaited between pieces: encoding a heavy home's index in one go held the
 * thread for ~0.1 s (D63).
 */
export async function encodeIndex(saved: SavedIndex, between: () => Promise<void>): Promise<Buffer[]> {
  const { dump } = saved;
  const blocks: Blocks = {
    meta: { derivation: DERIVATION_VERSION, rules: FIND_RULES_VERSION },
    stamps: saved.stamps,
    entries: dump.values.map((e) => [e.kind, e.id, e.title, e.project, e.modified, e.type]),
    terms: dump.terms,
  };
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(MAGIC, 0);
  const pieces: Buffer[] = [magic];
  for (const name of BLOCKS) pieces.push(...(await jsonBlock(blocks[name], between)));
  const { pairs, starts, sizes } = dump;
  let words = FIELDS * dump.values.length + sizes.length;
  for (const size of sizes) words += 2 * size;
  const out = Buffer.alloc(4 * words);
  const numbers = new Uint32Array(out.buffer, out.byteOffset, words);
  let at = 0;
  for (const lengths of dump.lengths) {
    numbers.set(lengths, at);
    at += lengths.length;
  }
  for (let cell = 0; cell < sizes.length; cell++) {
    const size = sizes[cell]!;
    numbers[at++] = size;
    for (let i = starts[cell]!, end = i + 2 * size; i < end; i++) numbers[at++] = pairs[i]!;
    if (cell % (FIELDS * POSTINGS_PER_PAUSE) === FIELDS * POSTINGS_PER_PAUSE - 1) await between();
  }
  pieces.push(out);
  return pieces;
}

/** One JSON block as the file holds it: its byte length, its UTF-8 (an array a piece at a time), the padding. */
async function jsonBlock(value: unknown, between: () => Promise<void>): Promise<Buffer[]> {
  const texts: Buffer[] = [];
  if (Array.isArray(value) && value.length > JSON_PIECE_ITEMS) {
    for (let i = 0; i < value.length; i += JSON_PIECE_ITEMS) {
      const items = JSON.stringify(value.slice(i, i + JSON_PIECE_ITEMS));
      // The pieces of one array: `[a,b` `,c,d` ... `,y,z]`.
      texts.push(Buffer.from(`${i === 0 ? '[' : ','}${items.slice(1, -1)}${i + JSON_PIECE_ITEMS >= value.length ? ']' : ''}`, 'utf8'));
      await between();
    }
  } else {
    texts.push(Buffer.from(JSON.stringify(value), 'utf8'));
  }
  const length = texts.reduce((sum, text) => sum + text.length, 0);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(length, 0);
  return [head, ...texts, Buffer.alloc(padded(length) - length, 0x20)];
}

/**
 * The saved index in `bytes`, or null when another version of the rules derived it; throws when they are
 * corrupt. `between` is awaited between the blocks, so no turn parses more than one.
 */
export async function decodeIndex(bytes: Buffer, between: () => Promise<void>): Promise<SavedIndex | null> {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== MAGIC) throw new Error('not a saved find index');
  let offset = 4;
  const parsed: Partial<Record<(typeof BLOCKS)[number], unknown>> = {};
  for (const name of BLOCKS) {
    if (offset + 4 > bytes.length) throw new Error('saved find index: torn');
    const length = bytes.readUInt32LE(offset);
    if (offset + 4 + length > bytes.length) throw new Error('saved find index: torn');
    parsed[name] = JSON.parse(bytes.toString('utf8', offset + 4, offset + 4 + length)) as unknown;
    offset += 4 + padded(length);
    if (name === 'meta') {
      const meta = parsed.meta as Blocks['meta'] | null;
      if (meta?.derivation !== DERIVATION_VERSION || meta.rules !== FIND_RULES_VERSION) return null;
    }
    await between();
  }
  const blocks = checked(parsed);
  if (offset > bytes.length || (bytes.length - offset) % 4 !== 0) throw new Error('saved find index: torn');
  // The numbers are read in place when the buffer allows 4-byte words there, else from a copy.
  const start = bytes.byteOffset + offset;
  const count = (bytes.length - offset) / 4;
  const numbers = start % 4 === 0 && bytes.buffer instanceof ArrayBuffer
    ? new Uint32Array(bytes.buffer, start, count)
    : new Uint32Array(Uint8Array.prototype.slice.call(bytes, offset).buffer);
  const n = blocks.entries.length;
  let at = 0;
  const take = (words: number): Uint32Array<ArrayBuffer> => {
    if (at + words > numbers.length) throw new Error('saved find index: torn');
    const view = words === 0 ? NONE : numbers.subarray(at, at + words);
    at += words;
    return view;
  };
  const lengths = Array.from({ length: FIELDS }, () => take(n));
  // Each term's pairs stay where they are in the file's words: their starts and sizes are noted.
  const cells = blocks.terms.length * FIELDS;
  const starts = new Uint32Array(cells);
  const sizes = new Uint32Array(cells);
  for (let cell = 0; cell < cells; cell++) {
    if (cell % (FIELDS * 8192) === FIELDS * 8192 - 1) await between();
    if (at >= numbers.length) throw new Error('saved find index: torn');
    const size = numbers[at++]!;
    if (at + 2 * size > numbers.length) throw new Error('saved find index: torn');
    starts[cell] = at;
    sizes[cell] = size;
    at += 2 * size;
  }
  if (at !== numbers.length) throw new Error('saved find index: trailing words');
  const values: FindEntry[] = blocks.entries.map(([kind, id, title, project, modified, type]) => ({ key: docKey(kind, id), kind, id, title, project, modified, type }));
  return { dump: { values, lengths, terms: blocks.terms, pairs: numbers, starts, sizes }, stamps: blocks.stamps };
}

const NONE = new Uint32Array(0);

function padded(length: number): number {
  return Math.ceil(length / 4) * 4;
}

function checked(parsed: Partial<Record<(typeof BLOCKS)[number], unknown>>): Blocks {
  const str = (v: unknown): boolean => typeof v === 'string';
  const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
  const { stamps, entries, terms } = parsed;
  const ok = Array.isArray(stamps) && stamps.every((s) => Array.isArray(s) && s.length === 2 && str(s[0]) && str(s[1]))
    && Array.isArray(terms) && terms.every(str)
    && Array.isArray(entries) && entries.every((e) => Array.isArray(e) && e.length === 6 && KINDS.includes(e[0] as FindKind)
      && str(e[1]) && str(e[2]) && strOrNull(e[3]) && str(e[4]) && strOrNull(e[5]));
  if (!ok) throw new Error('saved find index: header');
  return parsed as Blocks;
}
