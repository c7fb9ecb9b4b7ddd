// Reading a log the way the session index does, for tests: one file in a temp projects dir, read whole
// or appended to, in any chunk size, its link facts as records.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createReadSlot, readLog, type LineParser, type TrackedLog } from '../../src/domain/transcripts/transcriptReader.js';

export const LOG_SESSION = '1b0c4f7e-2d3a-4c5b-9e8f-7a6b5c4d3e2f';

export interface LogDir {
  file: string;
  write(content: string | Buffer): Promise<void>;
  cleanup(): Promise<void>;
}

/** A log at `<tmp>/projects/-work/<uuid>.jsonl` (or below its session's subagents/ when `rel` says). */
export async function logDir(rel = `-work/${LOG_SESSION}.jsonl`): Promise<LogDir> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-reader-'));
  const file = path.join(root, 'projects', ...rel.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  return {
    file,
    write: (content) => writeFile(file, content),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export interface ReadOptions {
  chunkBytes?: number;
  parser?: LineParser;
  maxLineBytes?: number;
}

/** The log brought up to date from `previous`; throws unless it was read. */
export function read(file: string, previous: TrackedLog | null = null, o: ReadOptions = {}): TrackedLog {
  const result = readLog(file, previous, createReadSlot(o.chunkBytes, o.parser, o.maxLineBytes));
  if (result.kind !== 'read') throw new Error(`expected a read, got ${result.kind}`);
  return result.log;
}
