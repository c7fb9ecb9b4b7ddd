// Secrets stay out of what the model is handed: every text an MCP answer carries from a memory file (a
// content window, a search snippet, a health finding) goes through the same detector the health check and
// the UI use (domain/memory/care/secrets.ts), masked character for character. The HTTP content endpoint
// stays raw: the person reveals a secret there on purpose, the model never does.
import { openedFileWindow, type ContentWindow } from '../domain/contentWindow.js';
import { maskSecrets } from '../domain/memory/care/secrets.js';
import type { Viewer } from '../viewer.js';

/** The text with its secrets masked. */
export function masked(text: string): string {
  return maskSecrets(text).text;
}

/** A nullable text with its secrets masked. */
export function maskedOrNull(text: string | null): string | null {
  return text === null ? null : masked(text);
}

/** Bytes read on each side of a window to finish the lines it cuts: as far as the detector looks in a line. */
const EDGE_BYTES = 4096;

/**
 * A window of a memory file with its secrets masked. A window cuts lines at its edges, and a token cut in
 * two is no longer recognisable: the cut lines are completed from the file on both sides, masked whole,
 * and cut back, so neither half of a token leaks.
 */
export async function maskedWindow(viewer: Viewer, id: string, window: ContentWindow): Promise<ContentWindow> {
  const side = async (offset: number, bytes: number): Promise<string> => {
    const opened = bytes > 0 ? await viewer.memory.open(id) : null;
    return opened === null ? '' : (await openedFileWindow(opened, offset, bytes))?.content ?? '';
  };
  const startAt = Math.max(0, window.offset - EDGE_BYTES);
  const before = await side(startAt, window.offset - startAt);
  const after = window.nextOffset === null ? '' : await side(window.nextOffset, EDGE_BYTES);
  const head = before.slice(before.lastIndexOf('\n') + 1);
  const newline = after.indexOf('\n');
  const tail = newline === -1 ? after : after.slice(0, newline);
  const text = maskSecrets(head + window.content + tail).text;
  return { ...window, content: text.slice(head.length, head.length + window.content.length) };
}
