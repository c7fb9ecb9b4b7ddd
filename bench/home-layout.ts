// Names and fixed points of the synthetic home: Claude Code's project-folder encoding and file-name
// patterns, the fake source root the sessions ran in, and the clock everything is dated from.

/** Claude Code's project-folder encoding (names under 200 chars): every char outside [A-Za-z0-9] → '-'. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/;
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const FAKE_ROOT = '/home/bench/src';
export const BASE_TIME = Date.UTC(2026, 10, 20, 12, 0, 0);
export const DAY = 86_400_000;
