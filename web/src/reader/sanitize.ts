// The last gate before rendered markdown touches the page: DOMPurify with HTML only (no SVG/MathML,
// no style), links limited to http, https, mailto and relative URLs, new-tab links without opener.
import DOMPurify from 'dompurify';

/** http(s), mailto, or no scheme at all (relative); DOMPurify's own default also allows tel:, ftp:... */
export const SAFE_URI = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !SAFE_URI.test(href.trim())) node.removeAttribute('href');
      if (node.getAttribute('target') === '_blank') node.setAttribute('rel', 'noopener noreferrer nofollow');
      else node.removeAttribute('target');
    } else if (node.tagName === 'INPUT') {
      // Only the read-only task-list checkboxes.
      node.setAttribute('type', 'checkbox');
      node.setAttribute('disabled', '');
    }
  });
}

export function sanitizeHtml(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    ALLOWED_URI_REGEXP: SAFE_URI,
    ADD_ATTR: ['target'],
    FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'autofocus'],
  });
}

/** SVG from mermaid: SVG profile, plus foreignObject for HTML labels; scripts and handlers go. */
export function sanitizeSvg(svg: string): DocumentFragment {
  installHooks();
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true, html: true },
    ADD_TAGS: ['foreignObject'],
    FORBID_TAGS: ['script', 'iframe', 'object', 'embed', 'a'],
    ALLOWED_URI_REGEXP: SAFE_URI,
    RETURN_DOM_FRAGMENT: true,
  });
}
