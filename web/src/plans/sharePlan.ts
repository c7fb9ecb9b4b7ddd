// The browser half of "Download HTML": the body comes from the reader's own render path (markdown →
// sanitizer), mermaid diagrams as the SVG the reader already drew, and the file leaves through a Blob URL.
import type { RenderOptions } from '../reader/DocumentView';
import { RENDER_LIMIT } from '../reader/DocumentView';
import { renderMarkdown } from '../reader/markdown';
import { sanitizeHtml } from '../reader/sanitize';
import { buildShareHtml, escapeHtml, shareFilename, type SharedPlan } from './shareDocument';

/**
 * The rendered document, with each mermaid block that the reader has drawn (in `shown`, the reader's
 * article) carrying a copy of its SVG instead of its source. A <template> keeps the parsed markup inert.
 */
export function shareBody(markdown: string, options: RenderOptions, shown: Element | null): string {
  if (markdown.length > RENDER_LIMIT) return `<pre>${escapeHtml(markdown)}</pre>`;
  const template = document.createElement('template');
  template.innerHTML = sanitizeHtml(renderMarkdown(markdown, options).html);
  const drawn = Array.from(shown?.querySelectorAll('.mermaid-block') ?? []);
  Array.from(template.content.querySelectorAll('.mermaid-block')).forEach((block, i) => {
    const svg = drawn[i]?.querySelector('.mermaid-diagram svg');
    if (!svg) return;
    const copy = document.importNode(svg, true);
    // The file has no script to size it the way the reader does.
    copy.removeAttribute('style');
    block.replaceChildren(copy);
  });
  return template.innerHTML;
}

export function downloadShareHtml(plan: SharedPlan): void {
  const blob = new Blob([buildShareHtml(plan)], { type: 'text/html;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = shareFilename(plan.filename);
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Long enough for the browser to have taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
