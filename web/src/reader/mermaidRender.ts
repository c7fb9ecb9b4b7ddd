// Renders one mermaid diagram to a sanitized SVG that works under `style-src 'self'` (no
// 'unsafe-inline'): mermaid's <style> element becomes a constructed stylesheet and its style=""
// attributes are re-applied through CSSOM after insertion, which CSP does not restrict. While
// mermaid draws (it measures text in a scratch element of the page), its style attributes go
// through CSSOM and its <style> elements, however created, are kept inert, one diagram at a time;
// e2e/mermaidCsp.test.ts draws every kind of diagram and checks that the page reports no violation.
// This module is imported dynamically: mermaid is only downloaded when a document has a diagram.
import mermaid from 'mermaid';
import { neutralizeStyleAttributes } from './cspSafeMarkup';
import { sanitizeSvg } from './sanitize';

let initializedTheme: string | null = null;
let counter = 0;

function ensureInitialized(dark: boolean): void {
  const theme = dark ? 'dark' : 'default';
  if (initializedTheme === theme) return;
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    // SVG <text> labels: HTML labels need <foreignObject>, which the sanitizer does not let through.
    htmlLabels: false,
    // Throw on a syntax error instead of drawing mermaid's error picture: the reader shows the source.
    suppressErrorRendering: true,
  });
  initializedTheme = theme;
}

export interface RenderedDiagram {
  fragment: DocumentFragment;
  css: string;
  width: number;
  height: number;
}

/** Stand-in for mermaid's <style>: an SVG <desc> (kept by mermaid's own sanitizer) that holds the CSS as text. */
const INERT_STYLE = 'desc[data-pmv-css]';

/**
 * Runs `draw` with style attributes set through CSSOM, <style> elements created inert (their CSS
 * is collected from the output instead) and markup parsed without style attributes. Each would
 * otherwise be a CSP violation under a policy without 'unsafe-inline'. One draw at a time: the hooks
 * are global, and a second draw starting inside the first would take the first's hooks for the
 * originals and leave them unhooked when it put them back.
 */
let drawing: Promise<unknown> = Promise.resolve();

function withCspSafeStyles<T>(draw: () => Promise<T>): Promise<T> {
  const run = drawing.then(() => hooked(draw), () => hooked(draw));
  drawing = run.catch(() => undefined);
  return run;
}

async function hooked<T>(draw: () => Promise<T>): Promise<T> {
  const setAttribute = Element.prototype.setAttribute;
  const setAttributeNS = Element.prototype.setAttributeNS;
  const createElement = Document.prototype.createElement;
  const createElementNS = Document.prototype.createElementNS;
  const parseFromString = DOMParser.prototype.parseFromString;
  const inertStyle = (doc: Document, options?: ElementCreationOptions): Element => {
    const inert = createElementNS.call(doc, 'http://www.w3.org/2000/svg', 'desc', options);
    setAttribute.call(inert, 'data-pmv-css', '');
    return inert;
  };
  DOMParser.prototype.parseFromString = function (this: DOMParser, markup: string, type: DOMParserSupportedType) {
    return parseFromString.call(this, neutralizeStyleAttributes(String(markup)), type);
  } as DOMParser['parseFromString'];
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (name.toLowerCase() === 'style' && 'style' in this) {
      (this as HTMLElement).style.cssText = String(value);
      return;
    }
    setAttribute.call(this, name, value);
  };
  Element.prototype.setAttributeNS = function (this: Element, namespace: string | null, name: string, value: string) {
    if (name.toLowerCase() === 'style' && 'style' in this) {
      (this as HTMLElement).style.cssText = String(value);
      return;
    }
    setAttributeNS.call(this, namespace, name, value);
  };
  Document.prototype.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    return String(tag).toLowerCase() === 'style' ? inertStyle(this, options) : createElement.call(this, tag, options);
  } as Document['createElement'];
  // d3 creates an SVG's <style> with its namespace.
  Document.prototype.createElementNS = function (this: Document, namespace: string | null, tag: string, options?: ElementCreationOptions) {
    return String(tag).toLowerCase() === 'style' ? inertStyle(this, options) : createElementNS.call(this, namespace, tag, options);
  } as Document['createElementNS'];
  try {
    return await draw();
  } finally {
    Element.prototype.setAttribute = setAttribute;
    Element.prototype.setAttributeNS = setAttributeNS;
    Document.prototype.createElement = createElement;
    Document.prototype.createElementNS = createElementNS;
    DOMParser.prototype.parseFromString = parseFromString;
  }
}

/** Moves style attributes into data attributes and <style> text out of the SVG. */
function detachStyles(svg: string): { svg: string; css: string } {
  const doc = new DOMParser().parseFromString(neutralizeStyleAttributes(svg), 'image/svg+xml');
  const css: string[] = [];
  for (const style of Array.from(doc.querySelectorAll(`style, ${INERT_STYLE}`))) {
    css.push(style.textContent ?? '');
    style.remove();
  }
  // Never let a diagram's CSS fetch anything.
  const cleanCss = css.join('\n').replace(/@import[^;]*;/gi, '').replace(/url\((?!\s*['"]?#)[^)]*\)/gi, 'none');
  return { svg: new XMLSerializer().serializeToString(doc.documentElement), css: cleanCss };
}

export async function renderMermaid(code: string, dark: boolean): Promise<RenderedDiagram> {
  ensureInitialized(dark);
  counter += 1;
  const id = `pmv-mermaid-${counter}`;
  let svg: string;
  try {
    ({ svg } = await withCspSafeStyles(() => mermaid.render(id, code)));
  } finally {
    // mermaid leaves its scratch element behind when parsing fails.
    document.getElementById(`d${id}`)?.remove();
  }
  const detached = detachStyles(svg);
  const fragment = sanitizeSvg(detached.svg);
  const root = fragment.querySelector('svg');
  const viewBox = root?.getAttribute('viewBox')?.split(/[\s,]+/).map(Number) ?? [];
  const width = viewBox[2] && Number.isFinite(viewBox[2]) ? viewBox[2] : 600;
  const height = viewBox[3] && Number.isFinite(viewBox[3]) ? viewBox[3] : 400;
  return { fragment, css: detached.css, width, height };
}

/** Applies the style attributes kept aside by detachStyles, after the nodes are in the page. */
export function applyDetachedStyles(root: Element): void {
  for (const el of Array.from(root.querySelectorAll<SVGElement | HTMLElement>('[data-pmv-style]'))) {
    el.style.cssText = el.getAttribute('data-pmv-style') ?? '';
    el.removeAttribute('data-pmv-style');
  }
}

/** Adds diagram CSS as a constructed stylesheet; returns a function that removes it. */
export function adoptCss(css: string): () => void {
  if (!css.trim()) return () => undefined;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}
