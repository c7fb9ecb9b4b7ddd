// The first scan's progress line: rewritten in place in a terminal, plain lines elsewhere, gone once the
// scan is done; and the terminal's colours.
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount } from '../../src/cli/format.js';
import { ScanProgress } from '../../src/cli/progress.js';
import { Terminal, type Output } from '../../src/cli/terminal.js';

/** An output that keeps what is written to it, as a terminal (`tty`) or a pipe would receive it. */
function output(tty: boolean, colours = tty): Output & { text: string } {
  const out = { text: '', isTTY: tty, hasColors: tty ? () => colours : undefined, write: (chunk: string) => void (out.text += chunk) };
  return out;
}

describe('ScanProgress', () => {
  it('in a terminal: shows the line at once, rewrites it in place, and takes it away before the next lines', () => {
    const out = output(true, false);
    const terminal = new Terminal(out);
    let counts = { logs: 0, bytes: 0, plans: 0 };
    const progress = new ScanProgress(terminal, () => counts, 60_000);
    progress.start();
    expect(out.text).toBe('\r\x1b[2K  Scanning:     0 session logs (0 KB read), 0 plans');
    counts = { logs: 1234, bytes: 640 * 1024 * 1024, plans: 3000 };
    progress.tick();
    expect(out.text.endsWith('\r\x1b[2K  Scanning:     1,234 session logs (640 MB read), 3,000 plans')).toBe(true);
    expect(out.text).not.toContain('\n');
    progress.stop();
    terminal.lines(['Ready in 612 ms']);
    expect(out.text.endsWith('3,000 plans\r\x1b[2KReady in 612 ms\n')).toBe(true);
  });

  it('into a pipe: nothing at once (a quick scan prints no progress), then one plain line per tick', () => {
    const out = output(false);
    const terminal = new Terminal(out);
    const progress = new ScanProgress(terminal, () => ({ logs: 5, bytes: 3 * 1024 * 1024 * 1024, plans: 2 }), 60_000);
    progress.start();
    expect(out.text).toBe('');
    progress.tick();
    progress.tick();
    progress.stop();
    terminal.lines(['Ready in 9 ms']);
    expect(out.text).toBe('  Scanning:     5 session logs (3.00 GB read), 2 plans\n'.repeat(2) + 'Ready in 9 ms\n');
  });
});

describe('Terminal', () => {
  it('cuts the status line to the width of the terminal, so that it can be rewritten in place', () => {
    const out = Object.assign(output(true, false), { columns: 20 });
    new Terminal(out).status('  Scanning:     1,234 session logs');
    expect(out.text).toBe('\r\x1b[2K  Scanning:     1,2');
  });

  it('colours only a terminal that has colours', () => {
    expect(new Terminal(output(true, true)).style.green('ok')).toBe('\x1b[32mok\x1b[39m');
    expect(new Terminal(output(true, false)).style.green('ok')).toBe('ok');
    expect(new Terminal(output(false)).style.green('ok')).toBe('ok');
  });

  it('formats counts and sizes as the UI does', () => {
    expect([0, 999, 1000, 1234567].map(formatCount)).toEqual(['0', '999', '1,000', '1,234,567']);
    expect([2048, 5 * 1024 * 1024].map(formatBytes)).toEqual(['2 KB', '5 MB']);
  });
});
