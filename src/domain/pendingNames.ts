// What a change notice consumer has to look at again: the names (plan files, memory paths) the notices gave
// since its last pass, or null for all of them (a notice that named none, or a pass that has never run).
export class PendingNames {
  private names: Set<string> | null;

  /** `all`: the first pass looks at everything. */
  constructor(all = true) {
    this.names = all ? null : new Set();
  }

  /** A notice's names; null: it named none, so the next pass looks at everything. */
  add(names: Iterable<string> | null): void {
    if (names === null) this.names = null;
    else if (this.names !== null) for (const name of names) this.names.add(name);
  }

  /** What the pass about to run looks at; notices from now on are the next pass's. */
  take(): Set<string> | null {
    const names = this.names;
    this.names = new Set();
    return names;
  }
}
