// Real-shaped memory folders for the care tests: topics in Claude Code's newest frontmatter form,
// indexes in its `- [Title](file.md) — hook` style, projects that are git repositories.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryHealthSource } from '../../../src/contract/memoryCare.js';
import { memoryHealth } from '../../../src/domain/memory/care/health.js';
import { loadMemory, type MemoryProjectInfo } from '../../../src/domain/memory/loader.js';
import { encodeProjectPath } from '../../../src/domain/memory/projectKey.js';
import { type TempHome, memoryDirFor, write } from '../helpers.js';

export interface TopicOptions {
  type?: string | null;
  session?: string | null;
  modified?: string | null;
  pinned?: boolean;
  /** Written as is (not quoted): for values YAML reads in part. */
  rawDescription?: string;
  body?: string;
}

export function topic(name: string, description: string, o: TopicOptions = {}): string {
  const meta = ['metadata:', '  node_type: memory'];
  if (o.type !== null) meta.push(`  type: ${o.type ?? 'project'}`);
  if (o.pinned) meta.push('  pinned: true');
  if (o.session) meta.push(`  originSessionId: ${o.session}`);
  if (o.modified) meta.push(`  modified: ${o.modified}`);
  const desc = o.rawDescription !== undefined ? `description: ${o.rawDescription}` : `description: "${description}"`;
  return ['---', `name: ${name}`, desc, ...meta, '---', '', o.body ?? `# ${name}\n\n${description}.`, ''].join('\n');
}

export function indexLine(title: string, file: string, hook: string): string {
  return `- [${title}](${file}) — ${hook}`;
}

export interface Project {
  cwd: string;
  dir: string;
  info: MemoryProjectInfo;
}

/** A git repository at `<root>/src/<name>` and its default memory folder (created, empty). */
export async function gitProject(t: TempHome, name: string): Promise<Project> {
  const cwd = path.join(t.root, 'src', name);
  await mkdir(path.join(cwd, '.git'), { recursive: true });
  const dir = memoryDirFor(t.claude, cwd);
  await mkdir(dir, { recursive: true });
  const key = encodeProjectPath(cwd);
  return { cwd, dir, info: { key, dir: path.join(t.claude, 'projects', key), cwd } };
}

export async function files(dir: string, content: Record<string, string>, mtime?: Date): Promise<void> {
  for (const [file, text] of Object.entries(content)) await write(path.join(dir, file), text, mtime);
}

export const DAY = 86_400_000;

export async function health(
  t: TempHome, projects: MemoryProjectInfo[], o: { now?: number; staleDays?: number; sessions?: string[] } = {},
): Promise<{ sources: MemoryHealthSource[]; byProject(name: string): MemoryHealthSource; listing: Awaited<ReturnType<typeof loadMemory>>['listing'] }> {
  const memory = await loadMemory({ claudeDir: t.claude, homeDir: t.home, projects });
  const known = new Set(o.sessions ?? []);
  const sources = memoryHealth({
    listing: memory.listing, files: memory.files, now: o.now ?? Date.now(), staleDays: o.staleDays ?? 90,
    sessionKnown: (id) => known.has(id),
  });
  return {
    sources,
    listing: memory.listing,
    byProject(name) {
      const source = memory.listing.sources.find((s) => s.project === name);
      if (!source) throw new Error(`no source of ${name}`);
      return sources.find((s) => s.sourceId === source.id)!;
    },
  };
}

export function kinds(source: MemoryHealthSource): string[] {
  return source.problems.map((p) => `${p.kind}:${p.file ?? '-'}${p.line === null ? '' : `:${p.line}`}`);
}
