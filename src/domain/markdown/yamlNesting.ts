// How deep a YAML block may nest, found without parsing it: a linear scan that over-counts, so a
// recursive parser handed only blocks it accepts can never recurse deeper than the limit. Shared with
// the UI through frontmatter.ts: keep it free of Node APIs.

/**
 * Whether the block may nest deeper than `limit`. Over-counts on purpose, so the YAML parser never sees
 * a deeper block. A line's depth is that of the line it may belong to (the last one indented less, or
 * a key line at its own indentation when it is a `- ` item: YAML lets a sequence sit at its key's
 * indentation), plus one for its own node, one per `- `, `? ` or `: ` indicator on it (`- - - x` nests
 * three times) and one per open bracket, quoted or not, carried across lines.
 */
export function nestsDeeperThan(yamlText: string, limit: number): boolean {
  // The lines later lines may belong to, innermost last.
  const open: { indent: number; depth: number; item: boolean }[] = [];
  let flow = 0;
  let at = 0;
  while (at < yamlText.length) {
    let end = yamlText.indexOf('\n', at);
    if (end === -1) end = yamlText.length;
    let i = at;
    while (i < end && yamlText.charCodeAt(i) === 0x20) i++;
    // Blank and comment lines hold no structure and end no level.
    if (i >= end || yamlText.charCodeAt(i) === 0x23 || (yamlText.charCodeAt(i) === 0x0d && i + 1 >= end)) {
      at = end + 1;
      continue;
    }
    const indent = i - at;
    const item = yamlText.charCodeAt(i) === 0x2d && (i + 1 >= end || isBlank(yamlText.charCodeAt(i + 1)));
    const inFlow = flow > 0;
    if (!inFlow) {
      while (open.length > 0) {
        const top = open[open.length - 1]!;
        if (top.indent < indent || (top.indent === indent && item && !top.item)) break;
        open.pop();
      }
    }
    let indicators = 0;
    let deepest = flow;
    for (let prev = 0x20; i < end; prev = yamlText.charCodeAt(i), i++) {
      const c = yamlText.charCodeAt(i);
      if (c === 0x5b || c === 0x7b) {
        flow++;
        if (flow > deepest) deepest = flow;
      } else if ((c === 0x5d || c === 0x7d) && flow > 0) {
        flow--;
      } else if (i + 1 >= end || isBlank(yamlText.charCodeAt(i + 1))) {
        // `:` after a key (`k: v`, `k:`); `-` and `?` only where they start a node.
        if (c === 0x3a || ((c === 0x2d || c === 0x3f) && isBlank(prev))) indicators++;
      }
    }
    const depth = (open.length > 0 ? open[open.length - 1]!.depth : 0) + 1 + indicators + deepest;
    if (depth > limit) return true;
    if (!inFlow) open.push({ indent, depth: depth - deepest, item });
    at = end + 1;
  }
  return false;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}
