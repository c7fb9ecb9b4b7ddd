// A per-document Bloom filter of character trigrams: a search first asks each document's filter whether
// it can contain every trigram of the query, and only reads the (folded) text of those that can. A rare
// word then touches a handful of documents instead of every byte of every plan.
//
// False positives only cost a needless text scan; there are no false negatives, so results are exact.

// One probe at 8 bits per trigram: ~12% false positives per trigram, so a 3-letter query scans an eighth of
// the plans it need not, and a 10-letter word (8 trigrams) practically none; 3 probes cost 3x the build time.
const BITS_PER_TRIGRAM = 8;
const MIN_BITS = 256;
const MAX_BITS = 1 << 20; // 128 KiB: past ~100k distinct trigrams a filter says "maybe" to everything anyway
const PROBES = 1;

export interface TrigramBloom {
  readonly bits: Uint32Array;
  readonly mask: number;
}

/** 32-bit hash of the trigram starting at i (UTF-16 code units of already-folded text). */
function trigramHash(text: string, i: number): number {
  let h = Math.imul(text.charCodeAt(i), 0x9e3779b1);
  h = Math.imul(h ^ text.charCodeAt(i + 1), 0x85ebca77);
  h = Math.imul(h ^ text.charCodeAt(i + 2), 0xc2b2ae3d);
  return (h ^ (h >>> 15)) >>> 0;
}

function setProbes(bits: Uint32Array, mask: number, h: number): void {
  const step = ((h >>> 17) | (h << 15)) | 1;
  for (let p = 0, pos = h; p < PROBES; p++, pos = (pos + step) >>> 0) {
    const bit = pos & mask;
    bits[bit >>> 5]! |= 1 << (bit & 31);
  }
}

function hasProbes(bits: Uint32Array, mask: number, h: number): boolean {
  const step = ((h >>> 17) | (h << 15)) | 1;
  for (let p = 0, pos = h; p < PROBES; p++, pos = (pos + step) >>> 0) {
    const bit = pos & mask;
    if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

/** An empty filter sized for `chars` characters of text (an upper bound of its distinct trigrams). */
function emptyBloom(chars: number): TrigramBloom {
  const trigrams = Math.max(0, chars - 2);
  let size = MIN_BITS;
  while (size < trigrams * BITS_PER_TRIGRAM && size < MAX_BITS) size <<= 1;
  return { bits: new Uint32Array(size >>> 5), mask: size - 1 };
}

function addTrigrams(bloom: TrigramBloom, folded: string): void {
  for (let i = 0; i + 2 < folded.length; i++) setProbes(bloom.bits, bloom.mask, trigramHash(folded, i));
}

/**
 * Builds the filter of a folded text; sized from its length (an upper bound of its distinct trigrams), or
 * from `sizedFor` characters.
 */
export function buildTrigramBloom(folded: string, sizedFor = folded.length): TrigramBloom {
  const bloom = emptyBloom(sizedFor);
  addTrigrams(bloom, folded);
  return bloom;
}

/**
 * The filter of a text that arrives folded in pieces (a large file read a chunk at a time), sized for
 * `maxChars` (its byte size bounds its length); trigrams across the pieces' joins are in it too. Equal to
 * buildTrigramBloom() of the whole text sized the same (test/search/trigramBloom.property.test.ts).
 */
export async function buildTrigramBloomInPieces(pieces: AsyncIterable<string>, maxChars: number): Promise<TrigramBloom> {
  const bloom = emptyBloom(maxChars);
  let tail = '';
  for await (const piece of pieces) {
    const text = tail + piece;
    addTrigrams(bloom, text);
    tail = text.slice(Math.max(0, text.length - 2));
  }
  return bloom;
}

/** The trigram hashes a folded query needs; empty for queries under three characters (no filtering). */
export function queryTrigrams(foldedQuery: string): number[] {
  const hashes = new Set<number>();
  for (let i = 0; i + 2 < foldedQuery.length; i++) hashes.add(trigramHash(foldedQuery, i));
  return [...hashes];
}

/** false when the document certainly lacks one of the query's trigrams. */
export function mayContain(bloom: TrigramBloom, hashes: readonly number[]): boolean {
  const { bits, mask } = bloom;
  for (let i = 0; i < hashes.length; i++) if (!hasProbes(bits, mask, hashes[i]!)) return false;
  return true;
}
