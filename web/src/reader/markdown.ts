// Markdown to HTML for plans and memories: GitHub-flavoured (tables, strikethrough, task lists,
// autolinks), syntax highlighting, mermaid placeholders, heading ids for the outline, in-app
// navigation for links between plans/memories, [[wikilinks]], and the MEMORY.md cut marker.
// Raw HTML is off: `<script>` and friends stay text. The output still goes through DOMPurify
// (sanitize.ts) before it touches the page.
import MarkdownIt, { type MarkdownIt as MarkdownItInstance, type StateCore, type StateInline, type Token } from 'markdown-it';
import taskLists from 'markdown-it-task-lists';
import { MAX_WIKILINK_CHARS, wikiTarget } from '../../../src/domain/markdown/links';
import { foldCase } from '../search/fold';
import { highlightCode } from './highlightLanguages';

export interface Heading {
  level: number;
  text: string;
  id: string;
}

export type ResolvedLink =
  | { kind: 'nav'; href: string; nav: string; title?: string }
  /** `target`: the name the service lists in `danglingLinks` for it, when it differs from the href. */
  | { kind: 'broken'; reason: string; target?: string }
  | { kind: 'local' };

export interface CutMarker {
  /** 0-based line of the rendered source where unread text starts. */
  line: number;
  /** The cut falls inside that line. */
  midLine: boolean;
  /** Text of the marker. */
  label: string;
}

export interface RenderEnv {
  wikilinks?: boolean;
  /** Relative links (no scheme, not #anchors). */
  resolveHref?: (href: string) => ResolvedLink | null;
  resolveWiki?: (target: string) => ResolvedLink;
  cut?: CutMarker | null;
  /** Blocks say on which source line they start (`data-line`): the reader lands on a line by it. */
  sourceLines?: boolean;
  headings: Heading[];
  mermaidCount: number;
}

export interface RenderResult {
  html: string;
  headings: Heading[];
  mermaidCount: number;
}

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);
export const MAX_NESTING = 100;

export function isSafeUrl(url: string): boolean {
  const s = url.trim().toLowerCase();
  const m = /^([a-z][a-z0-9+.-]*):/.exec(s);
  if (!m) return true;
  if (SAFE_SCHEMES.has(m[1]!)) return true;
  return m[1] === 'data' && /^data:image\/(gif|png|jpeg|webp);/.test(s);
}

export function slugify(text: string): string {
  return (
    foldCase(text)
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'section'
  );
}

function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * `[[target|alias]]` where the service's link finder sees a wikilink: same length bound, no brackets or
 * line breaks inside, and `![[x]]` (an embed) left alone. One without a target (`[[|x]]`) is still
 * consumed, as text, so it cannot turn into a markdown link the service does not see either.
 */
function wikilinkRule(state: StateInline, silent: boolean): boolean {
  if (!(state.env as unknown as RenderEnv | undefined)?.wikilinks) return false;
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  if (pos > state.posMax - 4 || isEmbed(src, pos)) return false;
  const end = src.indexOf(']]', pos + 2);
  if (end < 0 || end > state.posMax - 2 || end - pos - 2 > MAX_WIKILINK_CHARS) return false;
  const inner = src.slice(pos + 2, end);
  if (inner === '' || /[[\]\n]/.test(inner)) return false;
  if (!silent) {
    const target = wikiTarget(inner);
    const token = state.push(target === null ? 'text' : 'wikilink', '', 0);
    token.content = target === null ? src.slice(pos, end + 2) : inner;
  }
  state.pos = end + 2;
  return true;
}

/** A `!` right before the brackets, itself not escaped by a backslash. */
function isEmbed(src: string, pos: number): boolean {
  if (src.charCodeAt(pos - 1) !== 0x21) return false;
  let k = pos - 1;
  while (k > 0 && src.charCodeAt(k - 1) === 0x5c) k--;
  return (pos - 1 - k) % 2 === 0;
}

function headingText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((c) => c.type === 'text' || c.type === 'code_inline' || c.type === 'wikilink')
    .map((c) => c.content)
    .join('')
    .trim();
}

function headingIds(state: StateCore): void {
  const env = state.env as unknown as RenderEnv;
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (t.type !== 'heading_open') continue;
    const text = headingText(tokens[i + 1]);
    const base = slugify(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const id = `h-${base}${n ? `-${n + 1}` : ''}`;
    t.attrSet('id', id);
    env.headings?.push({ level: Number(t.tag.slice(1)) || 1, text: text || '(untitled)', id });
  }
}

const LEAF_BLOCKS = new Set(['paragraph_open', 'heading_open', 'fence', 'code_block', 'html_block', 'tr_open', 'hr']);

/** Marks every block after the cut with `past-cut` and puts a marker where reading stops. */
function cutMarker(state: StateCore): void {
  const cut = (state.env as unknown as RenderEnv).cut;
  if (!cut) return;
  const threshold = cut.midLine ? cut.line + 1 : cut.line;
  const out: Token[] = [];
  let markedLevel = -1;
  let inserted = false;
  for (const t of state.tokens) {
    const opens = t.block && t.nesting !== -1 && t.map;
    if (opens && markedLevel < 0 && t.map![0] >= threshold) {
      if (!inserted) {
        const marker = new state.Token('cut_marker', t.type === 'list_item_open' ? 'li' : 'div', 0);
        marker.block = true;
        marker.content = cut.label;
        out.push(marker);
        inserted = true;
      }
      t.attrJoin('class', 'past-cut');
      if (t.nesting === 1) markedLevel = t.level;
    } else if (opens && markedLevel < 0 && LEAF_BLOCKS.has(t.type) && t.map![0] < threshold && t.map![1] > cut.line) {
      // Read only in part: the cut falls inside this block.
      t.attrJoin('class', 'straddles-cut');
    }
    out.push(t);
    if (t.nesting === -1 && markedLevel >= 0 && t.level === markedLevel) markedLevel = -1;
  }
  if (!inserted) {
    const marker = new state.Token('cut_marker', 'div', 0);
    marker.block = true;
    marker.content = cut.label;
    out.push(marker);
  }
  state.tokens = out;
}

/** Block tags whose opening token carries its first source line (1-based), as `data-line`. */
const LEAF_LINE_TYPES = new Set(['fence', 'code_block', 'hr']);

/**
 * Every rendered block says on which line of the source it starts: a reader opened from a search snippet
 * ("line 12") finds the block holding that line (landing.ts).
 */
function sourceLines(state: StateCore): void {
  if (!(state.env as unknown as RenderEnv).sourceLines) return;
  for (const t of state.tokens) {
    if (t.map && t.block && (t.nesting === 1 || LEAF_LINE_TYPES.has(t.type))) t.attrSet('data-line', String(t.map[0] + 1));
  }
}

function createRenderer(): MarkdownItInstance {
  const md = new MarkdownIt({
    html: false,
    linkify: true,
    typographer: false,
    // Block and inline parsing recurse per nesting level (blockquotes, lists, emphasis, links): past
    // this depth markdown-it reads the rest as text, so `>>>>…` or `- - - …` a hundred thousand deep
    // cannot overflow the stack. The default preset's value, pinned here because the bound matters.
    maxNesting: MAX_NESTING,
    highlight: (code, lang) => highlightCode(code, lang.trim().toLowerCase()),
  });
  md.validateLink = isSafeUrl;
  md.use(taskLists, { enabled: false, label: true });
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.core.ruler.push('heading_ids', headingIds);
  md.core.ruler.push('memory_cut', cutMarker);
  md.core.ruler.push('source_lines', sourceLines);

  const r = md.renderer.rules;
  const defaultFence = r.fence!;
  r.fence = (tokens, idx, options, rawEnv, self) => {
    const env = rawEnv as unknown as RenderEnv;
    const token = tokens[idx]!;
    const lang = token.info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (lang === 'mermaid') {
      env.mermaidCount += 1;
      const cls = token.attrGet('class');
      return `<div class="mermaid-block${cls ? ` ${escapeHtml(cls)}` : ''}"><pre class="mermaid-source"><code>${escapeHtml(token.content)}</code></pre></div>\n`;
    }
    return defaultFence(tokens, idx, options, rawEnv, self);
  };

  // A table scrolls sideways inside its own box when it is wider than the column: focusable, so a keyboard
  // can reach and scroll it (axe scrollable-region-focusable).
  r.table_open = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet('tabindex', '0');
    return self.renderToken(tokens, idx, options);
  };

  r.link_open = (tokens, idx, options, rawEnv, self) => {
    const env = rawEnv as unknown as RenderEnv;
    const token = tokens[idx]!;
    const href = String(token.attrGet('href') ?? '');
    if (href.startsWith('#')) {
      let fragment = href.slice(1);
      try {
        fragment = decodeURIComponent(fragment);
      } catch {
        // keep as written
      }
      token.attrSet('data-nav', `anchor:h-${slugify(fragment)}`);
    } else if (/^(https?:)?\/\//i.test(href)) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer nofollow');
      token.attrJoin('class', 'external');
    } else if (!/^mailto:/i.test(href)) {
      const resolved = env.resolveHref?.(href) ?? { kind: 'local' };
      if (resolved.kind === 'nav') {
        token.attrSet('href', resolved.href);
        token.attrSet('data-nav', resolved.nav);
        token.attrJoin('class', 'in-app');
        if (resolved.title) token.attrSet('title', resolved.title);
      } else if (resolved.kind === 'broken') {
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'href');
        token.attrJoin('class', 'broken-link');
        token.attrSet('data-broken', '1');
        token.attrSet('data-target', resolved.target ?? href);
        token.attrSet('title', `Broken link: ${resolved.reason}`);
      } else {
        token.attrJoin('class', 'local-link');
        token.attrSet('data-nav', 'none');
        token.attrSet('title', `${href} is a path on disk; the viewer only serves plans and memory files`);
      }
    }
    return self.renderToken(tokens, idx, options);
  };

  r.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (/^data:image\/(gif|png|jpeg|webp);/i.test(src)) return self.renderToken(tokens, idx, options);
    const label = `<span class="image-tag">image</span> ${escapeHtml(alt || src)}`;
    if (/^(https?:)?\/\//i.test(src)) {
      return `<a class="image-link external" href="${escapeHtml(src)}" target="_blank" rel="noopener noreferrer nofollow" title="Remote image (not loaded): ${escapeHtml(src)}">${label}</a>`;
    }
    return `<span class="image-link" title="Image on disk (not served): ${escapeHtml(src)}">${label}</span>`;
  };

  r.wikilink = (tokens, idx, _options, rawEnv) => {
    const env = rawEnv as unknown as RenderEnv;
    const raw = tokens[idx]!.content;
    const [targetPart = '', alias] = raw.split('|');
    const target = wikiTarget(raw) ?? '';
    const label = escapeHtml((alias ?? targetPart).trim() || raw);
    const resolved = env.resolveWiki?.(target) ?? { kind: 'broken', reason: 'wikilinks are not resolved here' };
    if (resolved.kind === 'nav') {
      return `<a class="wikilink in-app" href="${escapeHtml(resolved.href)}" data-nav="${escapeHtml(resolved.nav)}" title="${escapeHtml(resolved.title ?? target)}">${label}</a>`;
    }
    const reason = resolved.kind === 'broken' ? resolved.reason : 'not found';
    return `<span class="wikilink broken-link" data-broken="1" data-target="${escapeHtml(target)}" title="Broken link: ${escapeHtml(reason)}">${label}<span class="sr-only"> (broken link)</span></span>`;
  };

  r.cut_marker = (tokens, idx) => {
    const t = tokens[idx]!;
    const marker = `<div class="cut-marker" role="separator" aria-label="${escapeHtml(t.content)}"><span class="cut-label">✂ ${escapeHtml(t.content)}</span></div>`;
    // A list may hold only list items: inside one the separator sits in an item of its own.
    return t.tag === 'li' ? `<li class="cut-marker-item">${marker}</li>\n` : `${marker}\n`;
  };
  return md;
}

let renderer: MarkdownItInstance | null = null;

export function renderMarkdown(src: string, options: Omit<RenderEnv, 'headings' | 'mermaidCount'> = {}): RenderResult {
  renderer ??= createRenderer();
  const env: RenderEnv = { ...options, headings: [], mermaidCount: 0 };
  const html = renderer.render(src, env as unknown as Record<string, unknown>);
  return { html, headings: env.headings, mermaidCount: env.mermaidCount };
}
