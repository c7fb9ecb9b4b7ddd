// Temp homes for memory tests: real files, real directories, removed afterwards.
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../src/domain/types.js';
import { encodeProjectPath } from '../../src/domain/memory/projectKey.js';

export interface TempHome {
  root: string;
  home: string;
  claude: string;
  cleanup(): Promise<void>;
}

export async function tempHome(): Promise<TempHome> {
  // realpath: the temp dir may sit behind a symlink (macOS /var), and listings report real paths.
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'pmv-memory-')));
  const home = path.join(root, 'home');
  const claude = path.join(home, '.claude');
  await mkdir(path.join(claude, 'projects'), { recursive: true });
  return { root, home, claude, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function write(file: string, content: string | Buffer, mtime?: Date): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  if (mtime) await utimes(file, mtime, mtime);
  return file;
}

/** The default memory dir of a project whose cwd is `cwd`. */
export function memoryDirFor(claude: string, cwd: string): string {
  return path.join(claude, 'projects', encodeProjectPath(cwd), 'memory');
}

/** The project most memory tests use: `<root>/src/webapp`, with its default memory folder created. */
export async function webappProject(t: TempHome): Promise<{ cwd: string; key: string; dir: string }> {
  const cwd = path.join(t.root, 'src', 'webapp');
  await mkdir(cwd, { recursive: true });
  const dir = memoryDirFor(t.claude, cwd);
  await mkdir(dir, { recursive: true });
  return { cwd, key: encodeProjectPath(cwd), dir };
}

export function collectingLogger(): Logger & { messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (m: string) => void messages.push(m) };
}
