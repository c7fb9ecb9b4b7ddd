// Splits a memory file into its YAML frontmatter and body, so the reader renders the body only.
// Lenient like Claude Code: no closing fence within the first 200 lines means "no frontmatter".

export interface SplitDocument {
  frontmatter: string | null;
  body: string;
  /** 0-based line of the original content where the body starts. */
  bodyStartLine: number;
  /** Offset of the original content where the body starts. */
  bodyStartOffset: number;
}

export function splitFrontmatter(content: string): SplitDocument {
  const bom = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  const none = { frontmatter: null, body: content, bodyStartLine: 0, bodyStartOffset: 0 };
  const firstEnd = content.indexOf('\n', bom);
  if (firstEnd < 0 || content.slice(bom, firstEnd).trimEnd() !== '---') return none;
  let pos = firstEnd + 1;
  for (let line = 1; line < 200 && pos <= content.length; line += 1) {
    const end = content.indexOf('\n', pos);
    const text = content.slice(pos, end < 0 ? content.length : end).trimEnd();
    if (text === '---' || text === '...') {
      const bodyStart = end < 0 ? content.length : end + 1;
      return {
        frontmatter: content.slice(firstEnd + 1, pos),
        body: content.slice(bodyStart),
        bodyStartLine: line + 1,
        bodyStartOffset: bodyStart,
      };
    }
    if (end < 0) break;
    pos = end + 1;
  }
  return none;
}
