// The session index's logs that are gone from disk and whose facts it keeps, because the viewer keeps a
// copy of them (transcripts/keptLogs.ts): the session cards, plan histories, outcomes, costs and memory
// history built from those facts stay, and the line reads go to the copy.

/** What the session index asks of the viewer's copies (KeptLogs; none: a gone log is forgotten). */
export interface KeptCopies {
  /** Whether a copy of the log is kept. */
  has(file: string): boolean;
  /** Whether the log was found gone from disk (as persisted with the copies). */
  isGone(file: string): boolean;
  setGone(file: string, gone: boolean): void;
}

export class GoneLogs {
  private readonly gone = new Set<string>();

  constructor(private readonly copies: KeptCopies | null) {}

  /** After a restore: the logs that were gone when the copies were last saved. */
  restored(files: Iterable<string>): void {
    if (this.copies === null) return;
    for (const file of files) if (this.copies.isGone(file) && this.copies.has(file)) this.gone.add(file);
  }

  has(file: string): boolean {
    return this.gone.has(file);
  }

  get size(): number {
    return this.gone.size;
  }

  /**
   * The log is gone from disk: 'kept' when its facts stay (a copy exists; first noticed now), 'still'
   * when they stayed already, 'forget' when it has no copy.
   */
  goneFromDisk(file: string): 'kept' | 'still' | 'forget' {
    if (this.gone.has(file)) {
      if (this.copies?.has(file) === true) return 'still';
      this.gone.delete(file);
      return 'forget';
    }
    if (this.copies === null || !this.copies.has(file)) return 'forget';
    this.gone.add(file);
    this.copies.setGone(file, true);
    return 'kept';
  }

  /** The log is on disk again: true when it was marked gone. */
  back(file: string): boolean {
    if (!this.gone.delete(file)) return false;
    this.copies?.setGone(file, false);
    return true;
  }

  /** Its copy was dropped: the facts go too (true when it was marked gone). */
  dropped(file: string): boolean {
    return this.gone.delete(file);
  }
}
