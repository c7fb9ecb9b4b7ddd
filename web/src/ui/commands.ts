// A tiny command bus: global keyboard shortcuts announce commands; whichever reader is on screen acts.
import { useEffect, useRef } from 'react';

export type Command =
  | 'nextMatch' | 'prevMatch' | 'openInEditor' | 'copyMarkdown' | 'copyPath' | 'toggleOutline'
  // The Archive's list, moved by the keyboard as the other lists are.
  | 'listNext' | 'listPrev' | 'listFirst' | 'listLast' | 'listOpen';

const target = new EventTarget();

export function emitCommand(command: Command): void {
  target.dispatchEvent(new Event(command));
}

export function useCommand(command: Command, handler: () => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = () => ref.current();
    target.addEventListener(command, listener);
    return () => target.removeEventListener(command, listener);
  }, [command]);
}
