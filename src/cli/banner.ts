// The lines the CLI prints as it starts: who it is and where it listens (as soon as it does), that it
// is ready (once the first scan is done), then what it found and how to stop it.
import { formatCount, plural } from './format.js';
import type { Styles } from './terminal.js';

/** The banner's last line: whoever reads the output knows the start-up has said everything. */
export const STOP_HINT = 'Press Ctrl+C to stop.';

export interface Listening {
  version: string;
  url: string;
  claudeDir: string;
  /** Why the demo is served, or null for the user's own home. */
  demoReason: string | null;
  /** A home of the user's that has none of what Claude Code leaves in one. */
  unlikelyHome: boolean;
  /** The port used when 3000 was busy, or null. */
  fallbackPort: number | null;
  /** The non-loopback address it is exposed on, or null. */
  exposedOn: string | null;
}

const label = (name: string): string => `  ${`${name}:`.padEnd(14)}`;

export function listeningLines(s: Styles, l: Listening): string[] {
  const demo = l.demoReason === null ? ''
    : l.demoReason.startsWith('--demo') ? `  ${s.yellow(`(DEMO DATA: ${l.demoReason})`)}`
    : `  ${s.yellow(`(DEMO DATA: ${l.demoReason}; pass --claude-dir or set CLAUDE_CONFIG_DIR to read another home)`)}`;
  const lines = [
    s.bold(`Plan & Memory Viewer ${l.version}`),
    `${label('URL')}${s.cyan(l.url)}`,
    `${label('Claude dir')}${l.claudeDir}${demo}`,
  ];
  if (l.fallbackPort !== null) lines.push(`${label('Note')}port 3000 was busy, using ${l.fallbackPort}`);
  if (l.unlikelyHome) {
    lines.push(`${label('Warning')}${s.yellow(`${l.claudeDir} does not look like a Claude Code home (no plans/, projects/ or settings.json)`)}`);
  }
  if (l.exposedOn !== null) {
    lines.push(`${label('WARNING')}${s.yellow(`listening on ${l.exposedOn}: anyone who can reach it and has the token reads your plans`)}`);
  }
  return lines;
}

/** `ms`: since the process started. */
export function readyLine(s: Styles, ms: number): string {
  return s.green(`Ready in ${formatCount(Math.round(ms))} ms`);
}

export interface Found {
  plans: number;
  projects: number;
  memorySources: number;
  /** Memory entries but the MEMORY.md indexes: what the UI counts as topics. */
  memoryTopics: number;
}

export function foundLines(s: Styles, f: Found): string[] {
  return [
    `${label('Plans')}${formatCount(f.plans)}`,
    `${label('Projects')}${formatCount(f.projects)}`,
    `${label('Memory')}${plural(f.memorySources, 'source', 'sources')}, ${plural(f.memoryTopics, 'topic', 'topics')}`,
    s.dim(STOP_HINT),
  ];
}
