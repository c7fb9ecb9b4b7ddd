// Claude Code settings files, read leniently: a missing or malformed file is "no setting", never an error.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../domain/types.js';

export type SettingScope = 'local' | 'project' | 'user';

export interface FoundSetting {
  value: string;
  scope: SettingScope;
  file: string;
}

const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * Parses one settings file; null when it is missing, too large, not JSON or not an object. Synchronous:
 * projects are looked up by the hundred, most have no such file, and an ENOENT takes microseconds where
 * a promise round trip per file added up to most of a second.
 */
export function readSettingsFileSync(file: string, logger?: Logger): Record<string, unknown> | null {
  let raw: string;
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO named settings.json must not hang the viewer waiting for a writer; fstat then
    // rejects it (and directories) before anything is read.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return null;
    if (stats.size > MAX_SETTINGS_BYTES) {
      logger?.warn(`ignoring ${file}: larger than 1 MiB`);
      return null;
    }
    raw = readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
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

export async function readSettingsFile(file: string, logger?: Logger): Promise<Record<string, unknown> | null> {
  return readSettingsFileSync(file, logger);
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
