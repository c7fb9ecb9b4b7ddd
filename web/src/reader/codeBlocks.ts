// Code blocks of a rendered document, after sanitizing (the sanitizer lets no button or tabindex
// through from the markdown): each is named and reachable by keyboard, since a long line scrolls it
// sideways and a keyboard user must be able to scroll it, and each gets a copy button.
const SVG = 'http://www.w3.org/2000/svg';

function copyIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const rect = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: '5', y: '5', width: '9', height: '9', rx: '1.5' })) rect.setAttribute(k, v);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', 'M3 11V3.5C3 2.7 3.7 2 4.5 2H11');
  for (const shape of [rect, path]) {
    shape.setAttribute('fill', 'none');
    shape.setAttribute('stroke', 'currentColor');
    shape.setAttribute('stroke-width', '1.5');
    svg.append(shape);
  }
  return svg;
}

/** The language a fence named (markdown-it's `language-x` class), if any. */
function languageOf(pre: HTMLElement): string | null {
  return /(?:^|\s)language-(\S+)/.exec(pre.querySelector('code')?.className ?? '')?.[1] ?? null;
}

export function decorateCodeBlocks(root: HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll<HTMLElement>('pre'))) {
    if (pre.closest('.code-block')) continue;
    pre.tabIndex = 0;
    pre.setAttribute('role', 'group');
    if (pre.closest('.mermaid-block')) {
      pre.setAttribute('aria-label', 'Diagram source');
      continue;
    }
    const lang = languageOf(pre);
    const block = document.createElement('div');
    block.className = 'code-block';
    pre.replaceWith(block);
    pre.setAttribute('aria-label', lang ? `Code block, ${lang}` : 'Code block');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.title = 'Copy the code';
    button.setAttribute('aria-label', 'Copy the code');
    button.append(copyIcon());
    block.append(pre, button);
  }
}

/** The text a copy button of decorateCodeBlocks() copies, when `target` is (inside) one. */
export function codeToCopy(target: Element): string | null {
  const button = target.closest('button.copy-code');
  return button ? button.parentElement?.querySelector('pre')?.textContent ?? '' : null;
}
