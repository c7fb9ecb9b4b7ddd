// Which Claude Code home to read: --claude-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude; the demo when
// there is none (or --demo).
import { realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface ResolvedHome {
  /** Real path of the claude dir (symlinked dotfile setups resolved once, security rule 10). */
  claudeDir: string;
  /** Why the demo is shown, or null when this is the user's own home. */
  demoReason: string | null;
  /** The dir the user asked for, for the banner when it differs. */
  requested: string;
}

export function requestedClaudeDir(flag: string | null, env: NodeJS.ProcessEnv, cwd: string): string {
  if (flag !== null) return path.resolve(cwd, flag);
  const fromEnv = env.CLAUDE_CONFIG_DIR;
  if (fromEnv && fromEnv.trim() !== '') return path.resolve(cwd, fromEnv);
  return path.join(os.homedir(), '.claude');
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

export async function resolveClaudeDir(requested: string): Promise<string> {
  try {
    return await realpath(requested);
  } catch {
    return requested;
  }
}
