// Claude Code settings files, read leniently: a missing or malformed file is "no setting", never an error.
import { readFileSync } from 'node:fs';
import { withRegularFileSync } from '../domain/files.js';
import path from 'node:path';
import type { Logger } from '../domain/types.js';

export type SettingScope = 'local' | 'project' | 'user';

export interface FoundSetting {
  value: string;
  scope: SettingScope;
  file: string;
}

// Claude Code's settings files are a few KB. A repository ships its own, so a large or deeply nested one
// is refused before JSON.parse, whose time grows with nesting (docs/robustness.md).
const MAX_SETTINGS_BYTES = 256 * 1024;
const MAX_SETTINGS_NESTING = 64;
const TOO_LARGE = Symbol('too large');

/** Whether JSON text nests arrays and objects deeper than `limit` (brackets inside strings not counted). */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

interface Parsed {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  settings: Record<string, unknown> | null;
}

// Settings files are read again on every memory load (every few seconds while the UI is open): a file
// whose stat did not move is not parsed again.
const parsedFiles = new Map<string, Parsed>();
const MAX_REMEMBERED = 4000;

/**
 * Parses one settings file; null when it is missing, too large or nested, not JSON or not an object.
 * Synchronous: projects are looked up by the hundred, most have no such file, and an ENOENT takes
 * microseconds where a promise round trip per file added up to most of a second.
 */
export function readSettingsFileSync(file: string, logger?: Logger): Record<string, unknown> | null {
  // A FIFO named settings.json is skipped, never waited on (see withRegularFileSync).
  const read = withRegularFileSync(file, (fd, stats): Parsed | typeof TOO_LARGE => {
    const known = parsedFiles.get(file);
    if (known && known.dev === stats.dev && known.ino === stats.ino && known.size === stats.size &&
        known.mtimeMs === stats.mtimeMs && known.ctimeMs === stats.ctimeMs) return known;
    if (stats.size > MAX_SETTINGS_BYTES) return TOO_LARGE;
    const { dev, ino, size, mtimeMs, ctimeMs } = stats;
    const parsed: Parsed = { dev, ino, size, mtimeMs, ctimeMs, settings: parseSettings(file, readFileSync(fd, 'utf8'), logger) };
    if (parsedFiles.size >= MAX_REMEMBERED) parsedFiles.clear();
    parsedFiles.set(file, parsed);
    return parsed;
  });
  if (read === null) return null;
  if (read === TOO_LARGE) {
    logger?.warn(`ignoring ${file}: larger than ${MAX_SETTINGS_BYTES / 1024} KiB`);
    return null;
  }
  return read.settings;
}

function parseSettings(file: string, raw: string, logger?: Logger): Record<string, unknown> | null {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (jsonNestsDeeperThan(text, MAX_SETTINGS_NESTING)) {
    logger?.warn(`ignoring ${file}: nested deeper than ${MAX_SETTINGS_NESTING} levels`);
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    logger?.warn(`ignoring ${file}: not a JSON object`);
  } catch {
    logger?.warn(`ignoring ${file}: not valid JSON`);
  }
  return null;
}

/** The settings files Claude Code consults for a project, highest precedence first. */
export function settingsFilesFor(projectRoot: string | null, claudeDir: string): { file: string; scope: SettingScope }[] {
  const files: { file: string; scope: SettingScope }[] = [];
  if (projectRoot) {
    files.push({ file: path.join(projectRoot, '.claude', 'settings.local.json'), scope: 'local' });
    files.push({ file: path.join(projectRoot, '.claude', 'settings.json'), scope: 'project' });
  }
  files.push({ file: path.join(claudeDir, 'settings.json'), scope: 'user' });
  return files;
}

/**
 * The first string value of `key` in the project's settings files (local, project, user), or null.
 * Non-string values are skipped as Claude Code skips them.
 */
export function findStringSetting(
  key: string,
  projectRoot: string | null,
  claudeDir: string,
  logger?: Logger,
): FoundSetting | null {
  for (const { file, scope } of settingsFilesFor(projectRoot, claudeDir)) {
    const settings = readSettingsFileSync(file, logger);
    const value = settings?.[key];
    if (typeof value === 'string' && value.trim() !== '') return { value, scope, file };
  }
  return null;
}
