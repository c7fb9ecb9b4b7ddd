// Which Claude Code home to read: --claude-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude. A home the
// user names (flag or variable) must exist: a typo is an error, never someone else's data. Only when
// the default ~/.claude is absent (Claude Code never ran here), or with --demo, is the demo served.
import { realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export type HomeChoice =
  /** `dir`: real path of the claude dir (symlinked dotfile setups resolved once, security rule 10). */
  | { kind: 'own'; dir: string; looksLikeHome: boolean }
  | { kind: 'demo'; reason: string }
  /** One line for the user; the CLI exits 1. */
  | { kind: 'error'; message: string };

interface Requested {
  dir: string;
  /** How the user named it, for messages: `--claude-dir`, `CLAUDE_CONFIG_DIR`, or null for the default. */
  named: string | null;
}

function requestedClaudeDir(flag: string | null, env: NodeJS.ProcessEnv, cwd: string, home = os.homedir()): Requested {
  if (flag !== null) return { dir: path.resolve(cwd, flag), named: '--claude-dir' };
  const fromEnv = env.CLAUDE_CONFIG_DIR;
  if (fromEnv && fromEnv.trim() !== '') return { dir: path.resolve(cwd, fromEnv), named: 'CLAUDE_CONFIG_DIR' };
  return { dir: path.join(home, '.claude'), named: null };
}

async function kindOf(p: string): Promise<'directory' | 'other' | 'absent' | NodeJS.ErrnoException> {
  try {
    return (await stat(p)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : (error as NodeJS.ErrnoException);
  }
}

/** What Claude Code leaves in every home it has used: any one of them is enough. */
async function looksLikeClaudeHome(dir: string): Promise<boolean> {
  const [plans, projects, settings] = await Promise.all([
    kindOf(path.join(dir, 'plans')), kindOf(path.join(dir, 'projects')), kindOf(path.join(dir, 'settings.json')),
  ]);
  return plans === 'directory' || projects === 'directory' || settings === 'other';
}

export async function chooseHome(options: { flag: string | null; demo: boolean; env: NodeJS.ProcessEnv; cwd: string; home?: string }): Promise<HomeChoice> {
  if (options.demo) return { kind: 'demo', reason: '--demo was given' };
  const { dir, named } = requestedClaudeDir(options.flag, options.env, options.cwd, options.home);
  const what = named === null ? dir : `${named} ${dir}`;
  const kind = await kindOf(dir);
  if (kind === 'absent') {
    return named === null ? { kind: 'demo', reason: `${dir} does not exist` } : { kind: 'error', message: `${what} does not exist` };
  }
  if (kind === 'other') return { kind: 'error', message: `${what} is not a directory` };
  if (kind !== 'directory') return { kind: 'error', message: `${what} cannot be read (${kind.code ?? kind.message})` };
  let real = dir;
  try {
    real = await realpath(dir);
  } catch {
    // Stat just saw it: keep the path as given.
  }
  return { kind: 'own', dir: real, looksLikeHome: await looksLikeClaudeHome(real) };
}
