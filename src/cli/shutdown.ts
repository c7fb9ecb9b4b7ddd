// Stopping, at any moment: Ctrl+C (SIGINT), SIGTERM or SIGHUP during the start-up as well as after it.
// What is open is closed (the server, then the viewer, which saves its caches), and the demo's temporary
// copy is removed on every way out of the process, a failed start or an uncaught error included.
import { removeDemoSync } from '../config/demo.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** A close that hangs (a watcher, a disk) must not keep a stopped viewer alive. */
const CLOSE_DEADLINE_MS = 5000;

export class Shutdown {
  private readonly closers: (() => Promise<unknown>)[] = [];
  private demo: string | null = null;
  /** Set by the first signal: the start-up stops reporting and leaves the exit to this. */
  started = false;

  constructor() {
    for (const signal of SIGNALS) process.on(signal, () => this.onSignal());
    // Synchronous and last: nothing runs after 'exit' that could write into the copy again.
    process.on('exit', () => {
      if (this.demo !== null) removeDemoSync(this.demo);
    });
  }

  /** The demo copy is about to be made at `root`: from now on every exit removes it, even mid-copy. */
  demoAt(root: string): void {
    this.demo = root;
  }

  /** Run on a signal, the last added first. */
  add(close: () => Promise<unknown>): void {
    this.closers.push(close);
  }

  private onSignal(): void {
    // Later signals change nothing: one Ctrl+C under `npm start` arrives more than once (the terminal
    // signals the whole process group, and npm passes it on), and closing is bounded by the deadline.
    if (this.started) return;
    this.started = true;
    const deadline = setTimeout(() => process.exit(0), CLOSE_DEADLINE_MS);
    void this.closeAll().finally(() => {
      clearTimeout(deadline);
      process.exit(0);
    });
  }

  private async closeAll(): Promise<void> {
    for (const close of [...this.closers].reverse()) await close().catch(() => undefined);
  }
}
