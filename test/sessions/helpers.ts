// Shared fixtures for the session tests: log lines shaped like Claude Code's, and throwaway homes.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { factsFilePieces } from '../../src/domain/sessions/savedFactsFile.js';

export interface ConversationLine {
  sessionId: string;
  cwd: string;
  slug?: string;
  content?: unknown;
  type?: string;
  /** Extra fields placed before the trailing keys (e.g. a nested toolUseResult). */
  extra?: Record<string, unknown>;
}

/** A conversation line with the trailing keys in Claude Code's order: cwd, sessionId, version, gitBranch, slug. */
export function conversationLine(line: ConversationLine): string {
  const record: Record<string, unknown> = {
    parentUuid: null,
    isSidechain: false,
    type: line.type ?? 'user',
    message: { role: 'user', content: line.content ?? 'hello' },
    uuid: randomUUID(),
    timestamp: '2026-11-19T09:00:04.880Z',
    ...line.extra,
    userType: 'external',
    entrypoint: 'cli',
    cwd: line.cwd,
    sessionId: line.sessionId,
    version: '2.1.329',
    gitBranch: 'main',
  };
  if (line.slug !== undefined) record.slug = line.slug;
  return `${JSON.stringify(record)}\n`;
}

/**
 * A line of a subagent log of Claude Code before 2.1.2 (`<folder>/agent-<id>.jsonl`): the parent session's
 * sessionId and slug, and the subagent's own agentId. The ids come before the message, as in older logs
 * (claude-code-formats.md), rather than ending the line.
 */
export function legacyAgentLine(sessionId: string, cwd: string, slug: string, agentId: string): string {
  return `${JSON.stringify({
    parentUuid: null, isSidechain: true, userType: 'external', cwd, sessionId, version: '2.0.76', gitBranch: 'main', agentId, slug,
    type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Planning.' }] }, uuid: '4e5f0000-0000-4000-8000-000000000000',
    timestamp: '2025-12-19T09:00:04.880Z',
  })}\n`;
}

/** A metadata line: carries the sessionId but neither cwd nor slug. */
export function metadataLine(sessionId: string, prompt = 'do the thing'): string {
  return `${JSON.stringify({ type: 'last-prompt', lastPrompt: prompt, sessionId })}\n`;
}

export function summaryLine(): string {
  return `${JSON.stringify({ type: 'summary', summary: 'A summary', leafUuid: randomUUID() })}\n`;
}

export interface TempHome {
  root: string;
  projectsDir: string;
  /** Creates projects/<folder>/ and returns its path. */
  folder(name: string): Promise<string>;
  /** Writes a file below projects/ (creating parents) and returns its absolute path. */
  write(rel: string, content: string | Buffer): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempHome(): Promise<TempHome> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-sessions-'));
  const projectsDir = path.join(root, 'projects');
  await mkdir(projectsDir);
  return {
    root,
    projectsDir,
    async folder(name) {
      const dir = path.join(projectsDir, name);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async write(rel, content) {
      const file = path.join(projectsDir, rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export const SID_A = '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f';
export const SID_B = '2c1d5a8f-3e4b-4d6c-8f9a-8b7c6d5e4f3a';
export const SID_C = '3d2e6b9a-4f5c-4e7d-9a0b-9c8d7e6f5a4b';

/**
 * What an index knows of its logs, from its snapshot without the directory stamps (those record when
 * and by which thread each directory was last listed, not what the logs say) and the view stamp (a name
 * each index gives its own answers).
 */
export function indexFacts(index: { toJSON(): unknown }): unknown {
  const { dirs: _dirs, viewStamp: _stamp, ...facts } = index.toJSON() as Record<string, unknown>;
  return facts;
}

/** The facts file beside a session index cache file (savedFactsFile.ts). */
export function factsFileOf(indexFile: string): string {
  return indexFile.replace(/\.json$/, '.facts');
}

/**
 * The session index cache (indexCache.ts) as its parts: the rules' version, the index (without the stamp
 * that ties it to its facts file, checked here), each log's other facts (the facts file's lines).
 */
export interface IndexCacheParts {
  header: { derivation: number };
  index: Record<string, unknown> & { files: unknown[] };
  facts: string[];
}

export async function readIndexCache(file: string): Promise<IndexCacheParts> {
  const [header, indexLine] = (await readFile(file, 'utf8')).split('\n');
  const { factsStamp, ...index } = JSON.parse(indexLine!) as IndexCacheParts['index'];
  const [factsHeader, ...facts] = (await readFile(factsFileOf(file), 'utf8')).split('\n');
  if (facts.at(-1) === '') facts.pop();
  const { stamp, bytes } = JSON.parse(factsHeader!) as { stamp: unknown; bytes: number[] };
  if (stamp !== factsStamp) throw new Error(`the facts file is not the one ${file} names`);
  expect(bytes).toEqual(facts.map((line) => Buffer.byteLength(line)));
  return { header: JSON.parse(header!) as IndexCacheParts['header'], index: index as IndexCacheParts['index'], facts };
}

export async function writeIndexCache(file: string, parts: IndexCacheParts): Promise<void> {
  const factsStamp = '00000000000000ff';
  await writeFile(file, [JSON.stringify(parts.header), JSON.stringify({ ...parts.index, factsStamp }), ''].join('\n'));
  await writeFile(factsFileOf(file), Buffer.concat(await factsFilePieces(factsStamp, parts.facts, async () => undefined)));
}
