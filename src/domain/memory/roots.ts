// Where an `autoMemoryDirectory` setting points, and whether the viewer may read it. A repository's
// settings file is written by whoever wrote the repository, so its value is checked before any listing.
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readSettingsFileSync, settingsFilesFor } from '../../config/settings.js';
import type { Logger } from '../types.js';

export const SETTING_KEY = 'autoMemoryDirectory';

/**
 * The absolute directory a setting value names, or null when Claude Code would ignore the value:
 * it must be absolute or start with `~/` (expanded against the home directory).
 */
export function expandMemoryDir(value: string, homeDir: string): string | null {
  const v = value.trim();
  if (v.startsWith('~/')) return path.resolve(homeDir, v.slice(2));
  if (path.isAbsolute(v)) return path.resolve(v);
  return null;
}

/** Stable across restarts: derived from the resolved directory path only. */
export function customSourceId(resolvedDir: string): string {
  return `custom-${createHash('sha256').update(resolvedDir).digest('hex').slice(0, 12)}`;
}

/**
 * realpath when the path exists, else the lexical absolute path. Synchronous like the rest of a memory
 * load (see timeSlicer.ts), and the native realpath(3), as fs.promises.realpath is.
 */
export function realOrResolved(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

export interface RootPolicy {
  home: string;
  claude: string;
  realHome: string;
  realClaude: string;
}

export function rootPolicy(homeDir: string, claudeDir: string): RootPolicy {
  return {
    home: path.resolve(homeDir),
    claude: path.resolve(claudeDir),
    realHome: realOrResolved(homeDir),
    realClaude: realOrResolved(claudeDir),
  };
}

/**
 * Why the viewer refuses to list `dir`, or null when it may. Refused: the file-system root, the home
 * directory or any directory above it, and dot-directories of home (`~/.ssh`, `~/.gnupg/x`), except
 * locations strictly inside the claude dir; there, the claude dir itself, its plans folder (or inside
 * it), its projects folder and a project's folder of session logs (a memory source is written by fixes:
 * none may be a folder of plans or logs). Both the lexical and the real path are checked, so neither
 * a symlink into `~/.ssh` nor a symlinked `~/.claude` changes the verdict.
 */
export function refusalReason(dir: string, policy: RootPolicy): string | null {
  const lexical = path.resolve(dir);
  const real = realOrResolved(lexical);
  return refusedBy(lexical, policy.home, policy.claude) ?? refusedBy(real, policy.realHome, policy.realClaude);
}

function refusedBy(p: string, home: string, claude: string): string | null {
  if (path.parse(p).root === p) return 'it is the file-system root';
  if (p === home) return 'it is the home directory';
  if (isInside(home, p)) return 'it contains the home directory';
  if (p === claude) return 'it is the Claude Code folder itself';
  if (isInside(claude, p)) return 'it contains the Claude Code folder';
  if (isInside(p, claude)) return claudeFolderRefusal(path.relative(claude, p).split(path.sep));
  const rel = path.relative(home, p);
  if (isInside(p, home) && rel.split(path.sep)[0]!.startsWith('.')) return 'it is a dot-directory of home or inside one';
  return null;
}

/** Inside the claude dir (`parts`: the path below it), what may not be a memory folder, and why. */
function claudeFolderRefusal(parts: string[]): string | null {
  if (parts[0] === 'plans') return 'it holds Claude Code\'s plans';
  if (parts[0] !== 'projects') return null;
  if (parts.length === 1) return 'it holds every project\'s session logs';
  if (parts.length === 2 || parts[2] !== 'memory') return 'it is a project folder of session logs';
  return null;
}

/** True when `child` is strictly below `parent`. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

export interface MemorySetting {
  /** The setting's raw value, for messages. */
  value: string;
  file: string;
  /** The absolute directory it names. */
  dir: string;
}

/** Reads settings files once per load: many cwds share one repository root. */
export class SettingsReader {
  private readonly cache = new Map<string, Record<string, unknown> | null>();

  constructor(private readonly claudeDir: string, private readonly homeDir: string, private readonly logger: Logger) {}

  /** `autoMemoryDirectory` from the user settings file. */
  async user(): Promise<MemorySetting | null> {
    return this.fromFile(path.join(this.claudeDir, 'settings.json'));
  }

  /** `autoMemoryDirectory` from `<root>/.claude/settings.local.json`, then `settings.json`, for each root in order. */
  async repo(roots: string[]): Promise<MemorySetting | null> {
    for (const root of roots) {
      // Without a `.claude` folder neither file can exist: one stat instead of one per file.
      if (!isDirectory(path.join(root, '.claude'))) continue;
      for (const { file, scope } of settingsFilesFor(root, this.claudeDir)) {
        if (scope === 'user') continue;
        const found = this.fromFile(file);
        if (found) return found;
      }
    }
    return null;
  }

  private fromFile(file: string): MemorySetting | null {
    let settings = this.cache.get(file);
    if (settings === undefined) {
      settings = readSettingsFileSync(file, this.logger);
      this.cache.set(file, settings);
    }
    const value = settings?.[SETTING_KEY];
    // Non-string and blank values are skipped, as Claude Code skips them.
    if (typeof value !== 'string' || value.trim() === '') return null;
    const dir = expandMemoryDir(value, this.homeDir);
    if (dir === null) {
      // Claude Code validates each source on its own, so an ignored value lets the next file answer.
      this.logger.warn(`ignoring ${SETTING_KEY} "${value}" in ${file}: not absolute and not ~/`);
      return null;
    }
    return { value, file, dir };
  }
}

