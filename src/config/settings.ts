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

const MAX_SETTINGS_BYTES = 1024 * 1024;
const TOO_LARGE = Symbol('too large');

/**
 * Parses one settings file; null when it is missing, too large, not JSON or not an object. Synchronous:
 * projects are looked up by the hundred, most have no such file, and an ENOENT takes microseconds where
 * a promise round trip per file added up to most of a second.
 */
export function readSettingsFileSync(file: string, logger?: Logger): Record<string, unknown> | null {
  // A FIFO named settings.json is skipped, never waited on (see withRegularFileSync).
  const raw = withRegularFileSync(file, (fd, stats) => (stats.size > MAX_SETTINGS_BYTES ? TOO_LARGE : readFileSync(fd, 'utf8')));
  if (raw === null) return null;
  if (raw === TOO_LARGE) {
    logger?.warn(`ignoring ${file}: larger than 1 MiB`);
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
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
