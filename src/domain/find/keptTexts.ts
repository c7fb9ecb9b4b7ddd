// Archived plans' texts kept for snippets, within a bound: building a plan's story reads its transcripts
// again, and a page of results from the archive should be cut from memory. A plan's versions share most of
// their lines, so each version is kept as indices into the plan's distinct lines, which holds the texts of
// ~5x as many plans in the same bound (docs/decisions.md, D44).

interface Entry {
  key: string;
  /**
   * The distinct lines joined, each followed by a newline: one string of their own. The lines split from
   * the texts would be slices that keep each whole text alive (V8 slices a substring of 13 or more
   * characters out of its parent), which is what the bound is meant to save.
   */
  lines: string;
  /** Where each distinct line starts in `lines` (and, last, where the text ends). */
  starts: Uint32Array;
  versions: Uint32Array[];
  /** The distinct lines' characters plus one per line index: what the bound counts. */
  size: number;
}

export class KeptTexts {
  /** Least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  constructor(private readonly limit: number) {}

  /** The texts kept under `name` if they were built from `key` (else undefined, and they are dropped). */
  get(name: string, key: string): string[] | undefined {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    this.entries.delete(name);
    if (entry.key !== key) {
      this.size -= entry.size;
      return undefined;
    }
    this.entries.set(name, entry);
    const { lines, starts } = entry;
    return entry.versions.map((version) => Array.from(version, (i) => lines.slice(starts[i]!, starts[i + 1]! - 1)).join('\n'));
  }

  /** Keeps `texts` under `name`, dropping the least recently used when the bound is passed. */
  keep(name: string, key: string, texts: readonly string[]): void {
    const old = this.entries.get(name);
    if (old !== undefined) {
      this.entries.delete(name);
      this.size -= old.size;
    }
    const lines: string[] = [];
    const indexOf = new Map<string, number>();
    let size = 0;
    const versions = texts.map((text) => {
      const split = text.split('\n');
      size += split.length;
      return Uint32Array.from(split, (line) => {
        let index = indexOf.get(line);
        if (index === undefined) {
          index = lines.push(line) - 1;
          indexOf.set(line, index);
          size += line.length;
        }
        return index;
      });
    });
    if (size > this.limit) return;
    const starts = new Uint32Array(lines.length + 1);
    lines.forEach((line, i) => (starts[i + 1] = starts[i]! + line.length + 1));
    this.entries.set(name, { key, lines: lines.length === 0 ? '' : `${lines.join('\n')}\n`, starts, versions, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.limit) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }

  /** What the bound counts of everything kept. */
  get keptSize(): number {
    return this.size;
  }
}
