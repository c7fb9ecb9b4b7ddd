// The plan list's links: which session a slug belongs to (the last line carrying it), and the cwd each
// session started in, which names its project and is where `claude --resume` finds it. A session's cwd
// can change mid-session (a `cd` into a subfolder), and one project folder can hold sessions of two paths
// (2.1.239), so the cwd kept is the one the project folder was named after (its encoding is the folder's
// name); failing that, the first cwd of the session's own transcript, then of a subagent's log.
import { encodeProjectPath } from '../../memory/projectKey.js';
import { isCwd, isSlug } from '../../sessions/values.js';
import { K } from './keys.js';
import type { Key, LineView } from '../lineView.js';
import type { CwdRank, LinkFacts, LogOwner } from '../logFacts.js';
import { lastAnswerOf, type LineHead } from './lineHead.js';

/** A cwd, sessionId or slug longer than this is not one Claude Code wrote: it is ignored. */
export const MAX_VALUE_CHARS = 8 * 1024;

const cwdOk = lastAnswerOf(isCwd);
const slugOk = lastAnswerOf(isSlug);

function value(line: LineView, key: Key, valid: (s: string) => boolean): string | null {
  const text = line.str(key, MAX_VALUE_CHARS + 1);
  return text !== null && text.length <= MAX_VALUE_CHARS && valid(text) ? text : null;
}

// Consecutive lines repeat one cwd: its encoding is worked out once.
let memo = { cwd: '', folder: '', named: false };

function namesFolder(cwd: string, folder: string): boolean {
  if (memo.cwd !== cwd || memo.folder !== folder) memo = { cwd, folder, named: encodeProjectPath(cwd) === folder };
  return memo.named;
}

export function linkLine(facts: LinkFacts, line: LineView, owner: LogOwner, head: LineHead): void {
  // Only a line's own session links it (a summary line names none).
  const sessionId = head.ownSessionId;
  if (sessionId === null) return;
  const cwd = value(line, K.cwd, cwdOk);
  if (cwd !== null) {
    const named = namesFolder(cwd, owner.folder);
    if (named || facts.folderCwd === null || facts.folderCwd.rank < 2) facts.folderCwd = { cwd, rank: named ? 2 : 0 };
    const rank: CwdRank = named ? 2 : owner.main ? 1 : 0;
    const known = facts.sessions.get(sessionId);
    if (known === undefined || rank > known.rank) facts.sessions.set(sessionId, { cwd, rank });
  }
  const slug = value(line, K.slug, slugOk);
  if (slug !== null) facts.slugs.set(slug, sessionId);
}
