// Small formatters: sizes, counts, relative and exact times, shell commands.

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** "1 topic", "2 topics", "1,024 entries": a count with its noun agreeing (`many` when adding -s is wrong). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

export function relativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'unknown';
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(Math.round(seconds / 60), 'minute');
}

/** Compact form for table cells: "5 min ago", "3 h ago", "2 days ago". */
export function shortRelativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'unknown';
  const s = Math.round((now - t) / 1000);
  if (s < 0) return relativeTime(iso, now);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(s / 3600);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(s / 86400);
  if (d === 1) return 'yesterday';
  if (d < 14) return `${d} days ago`;
  if (d < 60) return `${Math.round(d / 7)} wk ago`;
  if (d < 365) return `${Math.round(d / 30)} mo ago`;
  return `${Math.round(d / 365)} yr ago`;
}

// One formatter for every call: toLocaleString() with options builds a new one each time, which a page of
// rows (each with its exact time as a tooltip) pays on every render.
let fullFormat: Intl.DateTimeFormat | null = null;

export function exactTime(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  fullFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });
  return `${fullFormat.format(t)} (${t.toISOString()})`;
}

/** Quotes a word for a POSIX shell only when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function resumeCommand(sessionId: string, cwd: string | null): string {
  const resume = `claude --resume ${shellQuote(sessionId)}`;
  return cwd ? `cd ${shellQuote(cwd)} && ${resume}` : resume;
}
