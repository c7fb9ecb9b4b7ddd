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

/** Whitespace-separated words. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // \s in JS includes Unicode spaces; test per char to avoid allocating a split array for 50 MB plans.
    const space = c <= 32 ? c === 32 || (c >= 9 && c <= 13) : isUnicodeSpace(c);
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

function isUnicodeSpace(c: number): boolean {
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff || c === 0x85
  );
}

/**
 * The text of the first ATX heading outside fenced code, or null. Headings inside ``` or ~~~ blocks are
 * code, not structure (a plan quoting a shell script's `# comment` must not take its title from it).
 */
export function firstHeading(text: string): string | null {
  let fence: string | null = null;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    // Bounded per line: a 50 MB single-line plan must not feed a regex the whole file.
    const line = text.slice(start, Math.min(end, start + 4096)).replace(/\r$/, '');
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      // A closing fence uses the same character, is at least as long, and carries no info string.
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length &&
          line.slice(fenceMatch[0].length).trim() === '') {
        fence = null;
      }
    } else if (fenceMatch) {
      fence = fenceMatch[1]!;
    } else {
      const heading = ATX_HEADING.exec(line);
      if (heading) {
        const content = (heading[1] ?? '').trim();
        if (content.length > 0) return content;
      }
    }
    if (end === text.length) break;
    start = end + 1;
  }
  return null;
}

/** A plan's title: its first heading without a leading "Plan:", else the file name without `.md`. */
export function planTitle(text: string, filename: string): string {
  const heading = firstHeading(text);
  const title = heading?.replace(/^plan:\s*/i, '').trim();
  return title ? title : filename.replace(/\.md$/i, '');
}
