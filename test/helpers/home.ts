// Builds Claude Code homes in temp dirs, in the on-disk formats of claude-code-formats.md.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export class TempHome {
  private constructor(readonly root: string) {}

  static async create(prefix = 'pmv-test-'): Promise<TempHome> {
    return new TempHome(await mkdtemp(path.join(os.tmpdir(), prefix)));
  }

  /** The claude dir (`<root>/claude`). */
  get claude(): string {
    return path.join(this.root, 'claude');
  }

  /** A fake repository folder under the temp root, for session cwds and repo settings. */
  async repo(name: string): Promise<string> {
    const dir = path.join(this.root, 'repos', name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async write(rel: string, content: string | Buffer, mtime?: Date): Promise<string> {
    const file = path.isAbsolute(rel) ? rel : path.join(this.claude, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    if (mtime) await utimes(file, mtime, mtime);
    return file;
  }

  plan(name: string, content: string, mtime?: Date): Promise<string> {
    return this.write(path.join('plans', name), content, mtime);
  }

  /** A session log whose conversation lines carry cwd, sessionId and (when given) slug. */
  session(cwd: string, sessionId: string, slugs: (string | null)[], extraLines: string[] = []): Promise<string> {
    const lines = [
      JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId }),
      ...slugs.map((slug, i) => conversationLine(cwd, sessionId, slug, `message ${i}`)),
      ...extraLines,
    ];
    return this.write(path.join('projects', encodeCwd(cwd), `${sessionId}.jsonl`), lines.join('\n') + '\n');
  }

  async cleanup(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

export function conversationLine(cwd: string, sessionId: string, slug: string | null, text = 'hello'): string {
  const line: Record<string, unknown> = {
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid: '2c3d0000-0000-4000-8000-000000000000',
    timestamp: '2026-11-19T09:00:04.880Z',
    userType: 'external',
    entrypoint: 'cli',
    cwd,
    sessionId,
    version: '2.1.329',
    gitBranch: 'main',
  };
  if (slug !== null) line.slug = slug;
  return JSON.stringify(line);
}

/** Deterministic UUIDs for tests: uuid(1) = 00000001-0000-4000-8000-000000000000. */
export function uuid(n: number): string {
  return `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until check() returns a truthy value or the deadline passes; returns the last value. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await check();
  while (!value && Date.now() < deadline) {
    await sleep(stepMs);
    value = await check();
  }
  return value;
}
