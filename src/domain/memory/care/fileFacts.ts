// What the health check needs from one memory file's bytes, taken while the file is parsed for the
// listing (and kept with that parse while the file is unchanged), so a health check reads nothing again.
import { createHash } from 'node:crypto';
import { foldCase, isAscii } from '../../fold.js';
import type { Frontmatter } from '../../markdown/frontmatter.js';
import { linkPath } from '../../markdown/linkPath.js';
import { findLinks } from '../../markdown/links.js';
import { loadBudget, type CutReason } from '../loadBudget.js';
import { indexMentions, type Mention } from '../orphans.js';
import { keyLines, lineOfKey, needsQuotes } from './frontmatterLines.js';
import { findSecrets, type SecretHit } from './secrets.js';

/** A frontmatter value YAML reads only up to an unquoted ` #`. */
export interface CutValue {
  key: string;
  /** The full text as written. */
  written: string;
  /** What YAML (and Claude Code) reads. */
  read: string;
  line: number | null;
}

export interface IndexLink {
  kind: 'markdown' | 'wiki';
  /** A markdown link's relative path (as `linkPath` gives it) or a wikilink's target. */
  target: string;
  /** 1-based line of the file. */
  line: number;
  /** Before the cut and outside a left-out comment: Claude Code loads it. */
  loaded: boolean;
}

/** MEMORY.md under the load budget rule (loadBudget.ts). */
export interface IndexFacts {
  totalLines: number;
  totalChars: number;
  keptLines: number;
  keptChars: number;
  truncated: boolean;
  reason: CutReason;
  /** 1-based first line Claude Code does not load, or null. */
  firstUnreadLine: number | null;
  links: IndexLink[];
  /** `.md` names in backticks in its text (orphans.ts): a topic named there is still not linked. */
  mentions: Mention[];
}

export interface FileFacts {
  /** `metadata.pinned: true` (or a top-level `pinned: true`). */
  pinned: boolean;
  /** The YAML parser rejected the frontmatter; `quotable` is a value whose quoting would let it parse. */
  invalidFrontmatter: { message: string; line: number | null; quotable: { key: string; line: number } | null } | null;
  cutValues: CutValue[];
  secrets: SecretHit[];
  /** Fingerprint of the body as words (case and punctuation aside): the same fact written twice. */
  bodyKey: string | null;
  /** Only for a source's MEMORY.md. */
  index: IndexFacts | null;
}

/** Bodies shorter than this (in folded words' characters) say too little to call two of them one fact. */
const MIN_FACT_CHARS = 40;

export function fileFacts(text: string, frontmatter: Frontmatter, isIndex: boolean, maxLinks: number): FileFacts {
  const pinned = frontmatter.data.pinned === true || frontmatter.data.pinned === 'true';
  const hasFrontmatter = frontmatter.body.length !== text.length;
  const lines = hasFrontmatter && (frontmatter.written || frontmatter.invalid) ? keyLines(text) : [];
  const cutValues: CutValue[] = [];
  for (const [key, written] of Object.entries(frontmatter.written ?? {})) {
    const read = frontmatter.data[key];
    cutValues.push({ key, written, read: typeof read === 'string' ? read : '', line: lineOfKey(lines, key)?.line ?? null });
  }
  let invalidFrontmatter: FileFacts['invalidFrontmatter'] = null;
  if (frontmatter.invalid) {
    const culprit = lines.find((l) => needsQuotes(l.value) && (frontmatter.invalid!.line === null || l.line === frontmatter.invalid!.line)) ??
      lines.find((l) => needsQuotes(l.value) && /:[ \t]/.test(l.value));
    invalidFrontmatter = {
      message: frontmatter.invalid.message.split('\n')[0]!.slice(0, 300),
      line: frontmatter.invalid.line,
      quotable: culprit ? { key: culprit.key, line: culprit.line } : null,
    };
  }
  return {
    pinned,
    invalidFrontmatter,
    cutValues,
    secrets: findSecrets(text),
    bodyKey: isIndex ? null : bodyKey(frontmatter.body),
    index: isIndex ? indexFacts(text, text.length - frontmatter.body.length, maxLinks) : null,
  };
}

function bodyKey(body: string): string | null {
  const words = bodyWords(foldCase(body));
  if (words.length < MIN_FACT_CHARS) return null;
  return createHash('sha256').update(words).digest('hex').slice(0, 32);
}

/**
 * The letters-and-digits words of `text`, one space between each: `text.split(/[^\p{L}\p{N}]+/u)` without the
 * empty ends, joined, which test/memory/care/bodyWords.property.test.ts holds this to. Done a line at a time, and
 * without the Unicode classes on an ASCII line: over a 1 MB topic the one regex took ~130 ms, a stall of
 * every request (docs/decisions.md, D45).
 */
export function bodyWords(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const words = (isAscii(line) ? line.replace(/[^a-z0-9]+/gi, ' ') : line.replace(/[^\p{L}\p{N}]+/gu, ' ')).trim();
    if (words !== '') out.push(words);
  }
  return out.join(' ');
}

function indexFacts(text: string, bodyStart: number, maxLinks: number): IndexFacts {
  const budget = loadBudget(text);
  const links: IndexLink[] = [];
  let line = 1;
  let counted = 0;
  // Links come in text order, and so do the left-out ranges: one pointer walks them.
  let range = 0;
  for (const link of findLinks(text.slice(bodyStart), maxLinks)) {
    if (links.length >= maxLinks) break;
    const start = bodyStart + link.start;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    const target = link.kind === 'wiki' ? link.target : linkPath(link.target);
    if (target === null) continue;
    while (range < budget.skipped.length && budget.skipped[range]!.end <= start) range++;
    const inComment = range < budget.skipped.length && budget.skipped[range]!.start <= start;
    const loaded = bodyStart + link.end <= budget.keptEnd && !inComment;
    links.push({ kind: link.kind, target, line, loaded });
  }
  return {
    totalLines: budget.totalLines,
    totalChars: budget.totalChars,
    keptLines: budget.keptLines,
    keptChars: budget.keptChars,
    truncated: budget.truncated,
    reason: budget.reason,
    firstUnreadLine: budget.firstUnreadLine === null ? null : budget.firstUnreadLine + 1,
    links,
    mentions: indexMentions(text),
  };
}
