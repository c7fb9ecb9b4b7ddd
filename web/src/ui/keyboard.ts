// Global shortcuts. Letters and digits are ignored while typing in a field; Esc and Ctrl/⌘+K work
// everywhere.
import { useEffect, useRef } from 'react';

export interface KeyHandlers {
  focusSearch(): void;
  switchView(view: 1 | 2 | 3): void;
  help(): void;
  escape(): boolean;
  move(delta: number): void;
  moveTo(where: 'first' | 'last'): void;
  enter(): void;
  nextMatch(): void;
  prevMatch(): void;
  fullscreen(): void;
  copyMarkdown(): void;
  copyPath(): void;
  graph(): void;
}

export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['↑', '↓'], what: 'Move through the list (also k / j)' },
  { keys: ['Home', 'End'], what: 'First / last item' },
  { keys: ['Enter'], what: 'Open the selected file in your editor' },
  { keys: ['/'], what: 'Focus the search box' },
  { keys: ['Ctrl K', '⌘ K'], what: 'Find anything: plans, memory and sessions, ranked' },
  { keys: ['n', 'N'], what: 'Next / previous search match in the open document' },
  { keys: ['1', '2', '3'], what: 'Plans / Memory / Archive' },
  { keys: ['f'], what: 'Reader full screen on / off' },
  { keys: ['g'], what: 'Memory: link graph on / off' },
  { keys: ['c'], what: 'Copy the document as markdown' },
  { keys: ['p'], what: 'Copy the file path' },
  { keys: ['?'], what: 'Show these shortcuts' },
  { keys: ['Esc'], what: 'Close a dialog, leave full screen, clear the search' },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}

export function useGlobalKeys(handlers: KeyHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const h = ref.current;
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        h.focusSearch();
        return;
      }
      if (e.key === 'Escape') {
        if (h.escape()) e.preventDefault();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      // Inside a dialog, or on a control that uses the key itself, leave it alone.
      const el = e.target instanceof HTMLElement ? e.target : null;
      if (el?.closest('dialog')) return;
      const onButton = el && (el.tagName === 'BUTTON' || el.tagName === 'A' || el.tagName === 'SUMMARY');
      // Arrow keys and Home/End scroll a focused document, diagram or graph instead of moving the list.
      const inScroller = el?.closest('.reader-scroll, .diagram-viewport, .graph-viewport, .outline, .session-view');
      if (inScroller && ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
      let handled = true;
      switch (e.key) {
        case '/':
          h.focusSearch();
          break;
        case '1':
          h.switchView(1);
          break;
        case '2':
          h.switchView(2);
          break;
        case '3':
          h.switchView(3);
          break;
        case '?':
          h.help();
          break;
        case 'ArrowDown':
        case 'j':
          h.move(1);
          break;
        case 'ArrowUp':
        case 'k':
          h.move(-1);
          break;
        case 'Home':
          h.moveTo('first');
          break;
        case 'End':
          h.moveTo('last');
          break;
        case 'Enter':
          if (onButton) handled = false;
          else h.enter();
          break;
        case 'n':
          h.nextMatch();
          break;
        case 'N':
          h.prevMatch();
          break;
        case 'f':
          h.fullscreen();
          break;
        case 'g':
          h.graph();
          break;
        case 'c':
          h.copyMarkdown();
          break;
        case 'p':
          h.copyPath();
          break;
        default:
          handled = false;
      }
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
