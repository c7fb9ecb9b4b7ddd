// `plan-memory-viewer --from-file FILE`: an export (exportData.ts, written with --content) served
// read-only by the ordinary viewer. The export is laid out again as a Claude Code home in a temp dir: each
// plan in plans/ with its modification time, each memory entry in its source's folder, and per session one
// log line per plan naming its slug and a cwd ending in the plan's project (a memory source's likewise), so that every field of the
// listings comes back as the export has it (but the paths, which are the copy's, and created times).
// The original files are never touched: the service answers from the copy.
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HomeChoice } from '../config/claudeDir.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportDocument } from './exportData.js';

/** Where this process lays out an export (removed on exit, like the demo's copy). */
export function exportRoot(parent = os.tmpdir()): string {
  return path.join(parent, `plan-memory-viewer-export-${process.pid}`);
}

class ExportError extends Error {}

const encodeCwd = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-');
/** A single path segment that names a file or folder, nothing else. */
const SEGMENT = /^(?!\.\.?$)[^/\\\0]{1,255}$/;
const isRelativePath = (p: string): boolean => p.split('/').every((part) => SEGMENT.test(part));

/** Lays `file` out under `root` as a claude dir; an unreadable, foreign or unsafe export is an error choice. */
export async function homeFromExport(file: string, root: string): Promise<HomeChoice> {
  try {
    return { kind: 'own', dir: await layOut(await readExport(file), root), looksLikeHome: true };
  } catch (error) {
    const reason = error instanceof ExportError ? error.message : (error as NodeJS.ErrnoException).code ?? String(error);
    return { kind: 'error', message: `--from-file ${file}: ${reason}` };
  }
}

async function readExport(file: string): Promise<ExportDocument> {
  let doc: Partial<ExportDocument>;
  try {
    doc = JSON.parse(await readFile(file, 'utf8')) as Partial<ExportDocument>;
  } catch (error) {
    throw new ExportError(error instanceof SyntaxError ? 'not JSON' : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (typeof doc !== 'object' || doc === null || doc.format !== EXPORT_FORMAT) throw new ExportError('not an export of plan-memory-viewer');
  if (doc.version !== EXPORT_VERSION) throw new ExportError(`export version ${String(doc.version)}; this viewer reads version ${EXPORT_VERSION}`);
  if (doc.withContent !== true) throw new ExportError('holds no contents: export it with --content to serve it');
  if (!Array.isArray(doc.plans) || !Array.isArray(doc.memory?.entries) || !Array.isArray(doc.memory?.sources)) throw new ExportError('malformed: no plans or memory lists');
  return doc as ExportDocument;
}

async function put(file: string, content: string, modified: string | undefined): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content, { flag: 'wx' });
  const time = modified === undefined ? NaN : Date.parse(modified);
  // In seconds, half a millisecond in: the nearest double to the whole millisecond can fall just below
  // it, and the listing (which truncates to milliseconds) would then say one millisecond earlier.
  if (!Number.isNaN(time)) await utimes(file, (time + 0.5) / 1000, (time + 0.5) / 1000);
}

async function layOut(doc: ExportDocument, root: string): Promise<string> {
  await rm(root, { recursive: true, force: true });
  const claude = path.join(root, 'claude');
  await mkdir(path.join(claude, 'plans'), { recursive: true });
  const logs = new Map<string, string[]>();
  for (const plan of doc.plans) {
    if (typeof plan.filename !== 'string' || !SEGMENT.test(plan.filename) || !plan.filename.endsWith('.md')) {
      throw new ExportError(`a plan's file name is not a plain .md name: ${JSON.stringify(plan.filename)}`);
    }
    if (typeof plan.content !== 'string') continue; // unreadable when exported: nothing to serve
    await put(path.join(claude, 'plans', plan.filename), plan.content, plan.modified);
    if (typeof plan.sessionId !== 'string' || !SEGMENT.test(plan.sessionId)) continue;
    const project = typeof plan.project === 'string' && SEGMENT.test(plan.project) ? plan.project : 'exported';
    const cwd = path.join(root, 'repos', project);
    const log = path.join(claude, 'projects', encodeCwd(cwd), `${plan.sessionId}.jsonl`);
    const slug = plan.filename.slice(0, -'.md'.length).replace(/-agent-[0-9a-z]+$/i, '');
    const lines = logs.get(log) ?? [];
    lines.push(JSON.stringify({ type: 'user', message: { role: 'user', content: 'exported' }, timestamp: plan.modified, cwd, sessionId: plan.sessionId, slug }));
    logs.set(log, lines);
  }
  for (const [log, lines] of logs) {
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, `${lines.join('\n')}\n`);
  }
  const sources = new Map(doc.memory.sources.map((source) => [source.id, source]));
  const named = new Set<string>();
  for (const entry of doc.memory.entries) {
    const source = sources.get(entry.sourceId);
    if (source === undefined || !SEGMENT.test(entry.sourceId) || typeof entry.filename !== 'string' || !isRelativePath(entry.filename)) {
      throw new ExportError(`a memory entry's source or file name is not a plain name: ${JSON.stringify(entry.id)}`);
    }
    if (typeof entry.content !== 'string') continue;
    const folder = path.join(claude, 'projects', entry.sourceId);
    await put(path.join(folder, 'memory', entry.filename), entry.content, entry.modified);
    // The source's project comes from the cwd its sessions name: one under the copy with the same last
    // segment, so that no settings of a real folder on this machine join the export.
    const project = typeof source.cwd === 'string' ? path.basename(source.cwd.replace(/[/\\]+$/, '')) : '';
    if (SEGMENT.test(project) && !named.has(folder)) {
      named.add(folder);
      const cwd = path.join(root, 'memory-repos', entry.sourceId, project);
      await writeFile(path.join(folder, 'exported-memory.jsonl'),
        `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'exported' }, cwd, sessionId: 'exported-memory' })}\n`);
    }
  }
  return claude;
}
