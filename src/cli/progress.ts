// What the first scan has read so far, shown while it runs: a line rewritten in place in a terminal,
// a plain line every second elsewhere. It only reads counters the scan keeps anyway, on a timer that
// does not keep the process alive.
import { formatBytes, plural } from './format.js';
import type { Terminal } from './terminal.js';

export interface ScanCounts {
  /** Session logs known so far. */
  logs: number;
  /** Bytes of session logs read so far. */
  bytes: number;
  /** Plans listed so far. */
  plans: number;
}

const TERMINAL_INTERVAL_MS = 100;
const PLAIN_INTERVAL_MS = 1000;

export function progressLine(counts: ScanCounts): string {
  return `  Scanning:     ${plural(counts.logs, 'session log')} (${formatBytes(counts.bytes)} read), ${plural(counts.plans, 'plan')}`;
}

export class ScanProgress {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly terminal: Terminal, private readonly counts: () => ScanCounts, private readonly intervalMs?: number) {}

  /** In a terminal the line shows at once; elsewhere the first comes after one interval, so a quick scan prints none. */
  start(): void {
    if (this.timer !== null) return;
    if (this.terminal.interactive) this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs ?? (this.terminal.interactive ? TERMINAL_INTERVAL_MS : PLAIN_INTERVAL_MS));
    this.timer.unref();
  }

  tick(): void {
    this.terminal.status(progressLine(this.counts()), this.terminal.style.dim);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.terminal.clearStatus();
  }
}
