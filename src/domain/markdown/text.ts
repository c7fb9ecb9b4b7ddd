// Text statistics shared by plans and memory entries.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/** Lines as an editor counts them: "a\nb\n" is 2 lines, "a\nb" is 2, "" is 0. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  let at = text.indexOf('\n');
  while (at !== -1) {
    lines++;
    at = text.indexOf('\n', at + 1);
  }
  return text.endsWith('\n') ? lines - 1 : lines;
}

/**
 * countLines() of UTF-8 bytes, without decoding them, given how many `\n` bytes they hold (counted with
 * their words: wordCount.ts). A `\n` byte is never part of another character, decoded or not.
 */
export function linesFromNewlines(bytes: Uint8Array, newlines: number): number {
  if (bytes.length === 0) return 0;
  return bytes[bytes.length - 1] === 0x0a ? newlines : newlines + 1;
}

/** Lines longer than this are cut before a heading is looked for: a 50 MB single-line plan must not feed a regex the whole file. */
export const HEADING_LINE_CHARS = 4096;

/**
 * Finds the first ATX heading outside fenced code, one line at a time. Headings inside ``` or ~~~ blocks
 * are code, not structure (a plan quoting a shell script's `# comment` must not take its title from it).
 */
export class HeadingScanner {
  private fence: string | null = null;

  /** One line without its `\n`, cut to HEADING_LINE_CHARS: its heading text, or null when it is none. */
  line(raw: string): string | null {
    const line = raw.replace(/\r$/, '');
    const fenceMatch = FENCE.exec(line);
    if (this.fence !== null) {
      // A closing fence uses the same character, is at least as long, and carries no info string.
      if (fenceMatch && fenceMatch[1]![0] === this.fence[0] && fenceMatch[1]!.length >= this.fence.length &&
          line.slice(fenceMatch[0].length).trim() === '') {
        this.fence = null;
      }
    } else if (fenceMatch) {
      this.fence = fenceMatch[1]!;
    } else {
      const heading = ATX_HEADING.exec(line);
      if (heading) {
        const content = (heading[1] ?? '').trim();
        if (content.length > 0) return content;
      }
    }
    return null;
  }
}

/** The text of the first ATX heading outside fenced code, or null (see HeadingScanner). */
export function firstHeading(text: string): string | null {
  const scanner = new HeadingScanner();
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const heading = scanner.line(text.slice(start, Math.min(end, start + HEADING_LINE_CHARS)));
    if (heading !== null) return heading;
    if (end === text.length) break;
    start = end + 1;
  }
  return null;
}

/** A plan's title: its first heading without a leading "Plan:", else the file name without `.md`. */
export function planTitle(text: string, filename: string): string {
  return titleFrom(firstHeading(text), filename);
}

/** The title for a first heading (or none): without a leading "Plan:", else the file name without `.md`. */
export function titleFrom(heading: string | null, filename: string): string {
  const title = heading?.replace(/^plan:\s*/i, '').trim();
  return title ? title : filename.replace(/\.md$/i, '');
}

/** Prefixes tried in turn before the whole text: the heading is nearly always on the first lines. */
const TITLE_PROBES = [1024, 16 * 1024];

/**
 * planTitle() of UTF-8 bytes, decoding only the complete lines of a short prefix when the heading is
 * there (it nearly always is): a prefix of whole lines has the same first heading as the whole text,
 * and no heading in it (or a fence left open) means a longer prefix, or the whole text, is decoded.
 */
export function planTitleFromBytes(bytes: Buffer, filename: string): string {
  for (const probe of TITLE_PROBES) {
    if (bytes.length <= probe) break;
    const end = bytes.lastIndexOf(0x0a, probe);
    const heading = end > 0 ? firstHeading(bytes.toString('utf8', 0, end)) : null;
    if (heading !== null) return titleFrom(heading, filename);
  }
  return planTitle(bytes.toString('utf8'), filename);
}
