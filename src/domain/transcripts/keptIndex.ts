// The index of the viewer's kept transcript copies (keptLogs.ts): log path -> its copy's stamp, object and
// size, in <dir>/index.json with a format string; read back entry by entry, each checked (an object name is a
// hash, a path absolute), so a file that is not ours, or damaged, costs a warning and nothing else.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readCacheFileSync, TOO_LARGE } from '../files.js';
import type { Logger } from '../types.js';
import type { LogStamp } from './lineReads.js';

const FORMAT = 'plan-memory-viewer/kept-logs-1';
/** An object's name: a SHA-256 in hex and nothing else (a name read back is checked to be one). */
export const SHA = /^[0-9a-f]{64}$/;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const STALE_TMP_MS = 60 * 60 * 1000;

export interface KeptLog extends LogStamp {
  /** The object (SHA-256 of the log's bytes) holding its copy. */
  sha: string;
  /** The copy's compressed size. */
  keptBytes: number;
  /** When it was copied (ISO). */
  keptAt: string;
  /** The log is gone from disk: its sessions are served from the copy. */
  gone: boolean;
}

export function readKeptIndex(dir: string, logger: Logger): Map<string, KeptLog> {
  const entries = new Map<string, KeptLog>();
  const bytes = readCacheFileSync(path.join(dir, 'index.json'), MAX_INDEX_BYTES);
  if (bytes === null) return entries;
  let data: unknown;
  try {
    data = bytes === TOO_LARGE ? null : JSON.parse(bytes.toString('utf8'));
  } catch {
    data = null;
  }
  const index = (data as { format?: unknown; logs?: unknown } | null);
  if (index === null || typeof index !== 'object' || index.format !== FORMAT || !Array.isArray(index.logs)) {
    logger.warn(`the index of the kept transcripts (${dir}) is not readable; it is ignored`);
    return entries;
  }
  let skipped = 0;
  for (const item of index.logs as unknown[]) {
    const entry = checked(item);
    if (entry === null) skipped++;
    else entries.set(entry[0], entry[1]);
  }
  if (skipped > 0) logger.warn(`${skipped} entries of the kept transcripts' index were not readable; skipped`);
  return entries;
}

export function writeKeptIndex(dir: string, entries: ReadonlyMap<string, KeptLog>): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'index.json');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ format: FORMAT, logs: [...entries] }), { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Removes from `folder` what no entry refers to: objects of a run killed before its index was saved, and
 * temp files. Only names this module makes (a hash with `ext`, or a dot file ending in .tmp) are removed.
 */
export function sweepUnreferenced(folder: string, ext: string, entries: ReadonlyMap<string, KeptLog>): void {
  const live = new Set<string>();
  for (const entry of entries.values()) live.add(`${entry.sha}${ext}`);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const old = Date.now() - STALE_TMP_MS;
  for (const name of names) {
    const file = path.join(folder, name);
    // A temp file may be another viewer's on the same cache, being written: only a stale one is left over.
    const ours = name.endsWith('.tmp') ? (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < old
      : name.endsWith(ext) && SHA.test(name.slice(0, -ext.length)) && !live.has(name);
    if (ours) rmSync(file, { force: true });
  }
}

function checked(item: unknown): [string, KeptLog] | null {
  if (!Array.isArray(item) || item.length !== 2) return null;
  const [file, e] = item as [unknown, Record<string, unknown> | null];
  if (typeof file !== 'string' || !path.isAbsolute(file) || e === null || typeof e !== 'object') return null;
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (typeof e.sha !== 'string' || !SHA.test(e.sha) || !num(e.size) || !num(e.mtimeMs) || !num(e.ino) || !num(e.keptBytes)) return null;
  if (typeof e.keptAt !== 'string' || typeof e.gone !== 'boolean') return null;
  return [file, { sha: e.sha, size: e.size, mtimeMs: e.mtimeMs, ino: e.ino, keptBytes: e.keptBytes, keptAt: e.keptAt, gone: e.gone }];
}
