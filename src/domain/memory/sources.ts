// Which memory directories exist and which of them Claude Code still reads: the default folder of every
// project, plus the directories that user- and repo-level `autoMemoryDirectory` settings name.
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { lastPathSegment } from '../files.js';
import { foldCase } from '../fold.js';
import type { Logger, MemorySourceKind } from '../types.js';
import { decodeProjectKey, encodeProjectPath, gitRootOf } from './projectKey.js';
import {
  type RootPolicy, SETTING_KEY, SettingsReader, customSourceId, isDirectory, realOrResolved, refusalReason,
} from './roots.js';
import { TimeSlicer } from '../timeSlicer.js';

/** One `<claudeDir>/projects/<key>` folder; `cwd` comes from its session logs and may be unknown. */
export interface MemoryProjectInfo {
  key: string;
  dir: string;
  cwd: string | null;
}

export interface PlannedSource {
  id: string;
  kind: MemorySourceKind;
  project: string;
  cwd: string | null;
  /** Real absolute path of the memory directory. */
  dir: string;
  active: boolean;
}

export const ALL_PROJECTS = 'All projects';

/** Case-insensitive first, then exact, so the order is total and stable. */
export function compareNames(a: string, b: string): number {
  const fa = foldCase(a);
  const fb = foldCase(b);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function planSources(
  claudeDir: string, homeDir: string, projects: MemoryProjectInfo[], policy: RootPolicy, logger: Logger,
  slicer = new TimeSlicer(),
): Promise<PlannedSource[]> {
  const settings = new SettingsReader(claudeDir, homeDir, logger);

  const cwds = [...new Set(projects.map((p) => p.cwd).filter((c): c is string => c !== null))];
  const rootOf = new Map<string, string>();
  const gitSeen = new Map<string, string | null>();
  for (const cwd of cwds) {
    if (slicer.due()) await slicer.pause();
    rootOf.set(cwd, gitRootOf(cwd, gitSeen));
  }

  const defaults = await defaultSources(policy.realClaude, projects, rootOf, slicer);

  const candidates: PlannedSource[] = [];
  const user = await settings.user();
  if (user) {
    // Claude Code uses the setting whether or not the directory exists yet: no default is read any more.
    for (const source of defaults) source.active = false;
    candidates.push({ id: '', kind: 'custom', project: ALL_PROJECTS, cwd: null, dir: user.dir, active: true });
  }
  for (const cwd of cwds) {
    if (slicer.due()) await slicer.pause();
    const root = rootOf.get(cwd)!;
    const repo = await settings.repo(root === cwd ? [cwd] : [cwd, root]);
    if (!repo) continue;
    const replaced = new Set([encodeProjectPath(root), encodeProjectPath(cwd)]);
    for (const source of defaults) if (replaced.has(source.id)) source.active = false;
    candidates.push({ id: '', kind: 'custom', project: lastPathSegment(cwd), cwd, dir: repo.dir, active: true });
  }

  // Several projects may name the same directory; it is listed once, under the first project by name
  // ("All projects" takes part in that order like any other name).
  candidates.sort((a, b) => compareNames(a.project, b.project) || compareNames(a.cwd ?? '', b.cwd ?? ''));
  const byDir = new Map<string, PlannedSource>(defaults.map((d) => [d.dir, d]));
  const customs: PlannedSource[] = [];
  for (const candidate of candidates) {
    const refused = refusalReason(candidate.dir, policy);
    if (refused) {
      logger.warn(`not listing ${SETTING_KEY} ${candidate.dir}: ${refused}`);
      continue;
    }
    if (!isDirectory(candidate.dir)) continue;
    const dir = realOrResolved(candidate.dir);
    const existing = byDir.get(dir);
    if (existing) {
      // A setting naming a default folder makes Claude Code read that folder: keep one source, active.
      if (existing.kind === 'project') existing.active = true;
      continue;
    }
    const source = { ...candidate, dir, id: customSourceId(dir) };
    byDir.set(dir, source);
    customs.push(source);
  }
  for (const candidate of await agentCandidates(policy.realClaude, cwds, rootOf, slicer)) {
    const refused = refusalReason(candidate.dir, policy);
    if (refused) {
      logger.warn(`not listing agent memory ${candidate.dir}: ${refused}`);
      continue;
    }
    const dir = realOrResolved(candidate.dir);
    if (byDir.has(dir)) continue;
    const source = { ...candidate, dir, id: customSourceId(dir) };
    byDir.set(dir, source);
    customs.push(source);
  }
  return [...defaults, ...customs];
}

/** The agent-memory folders a repository keeps under `.claude/`, and whether they stay on this machine. */
const AGENT_FOLDERS = [{ folder: 'agent-memory', local: false }, { folder: 'agent-memory-local', local: true }] as const;

/**
 * Subagents' own memory folders (formats doc, "Subagent memory"): `<claude>/agent-memory/<agent>/` for
 * the user's agents, `<repo>/.claude/agent-memory[-local]/<agent>/` for a repository's. Each is listed as
 * a custom source named after its agent; a subagent reads it, so it is active.
 */
async function agentCandidates(
  realClaude: string, cwds: string[], rootOf: Map<string, string>, slicer: TimeSlicer,
): Promise<PlannedSource[]> {
  const found: PlannedSource[] = [];
  for (const agent of subfolders(path.join(realClaude, 'agent-memory'))) {
    found.push({ id: '', kind: 'custom', project: `agent: ${agent}`, cwd: null, dir: path.join(realClaude, 'agent-memory', agent), active: true });
  }
  const roots = [...new Set([...cwds, ...rootOf.values()])].sort();
  for (const root of roots) {
    if (slicer.due()) await slicer.pause();
    const claudeFolder = path.join(root, '.claude');
    if (!isDirectory(claudeFolder)) continue;
    for (const { folder, local } of AGENT_FOLDERS) {
      for (const agent of subfolders(path.join(claudeFolder, folder))) {
        found.push({
          id: '', kind: 'custom', project: `${lastPathSegment(root)} agent: ${agent}${local ? ' (local)' : ''}`, cwd: root,
          dir: path.join(claudeFolder, folder, agent), active: true,
        });
      }
    }
  }
  return found;
}

/** Names of the directories in `dir` (symlinks to directories count), sorted; none when it cannot be listed. */
function subfolders(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || (e.isSymbolicLink() && isDirectory(path.join(dir, e.name)))))
    .map((e) => e.name)
    .sort();
}

async function defaultSources(
  realClaude: string, projects: MemoryProjectInfo[], rootOf: Map<string, string>, slicer: TimeSlicer,
): Promise<PlannedSource[]> {
  const projectsDir = path.join(realClaude, 'projects');
  let folders: Dirent[];
  try {
    folders = readdirSync(projectsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const realProjectsDir = realOrResolved(projectsDir);
  const cwdByKey = new Map<string, string>();
  for (const p of projects) if (p.cwd !== null && !cwdByKey.has(p.key)) cwdByKey.set(p.key, p.cwd);
  // A key without logs can still be the git root of a session started in a subfolder or worktree.
  const rootByKey = new Map<string, string>();
  for (const root of [...rootOf.values()].sort()) {
    const key = encodeProjectPath(root);
    if (!rootByKey.has(key)) rootByKey.set(key, root);
  }

  const sources: PlannedSource[] = [];
  folders.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of folders) {
    if (slicer.due()) await slicer.pause();
    const folder = dirent.name;
    const dir = realMemoryDir(projectsDir, realProjectsDir, dirent);
    if (dir === null) continue;
    let cwd = cwdByKey.get(folder) ?? rootByKey.get(folder) ?? null;
    let project: string;
    if (cwd !== null) {
      project = lastPathSegment(cwd);
    } else {
      const decoded = await decodeProjectKey(folder);
      cwd = decoded.path;
      project = decoded.name;
    }
    sources.push({
      id: folder, kind: 'project', project, cwd, dir, active: true,
    });
  }
  return sources;
}

/**
 * The real path of `<projects>/<folder>/memory` when it is a directory, else null. realpath(3) costs a
 * readlink per path component, hundreds of folders per load; when neither the folder (as its dirent
 * says) nor `memory` (one lstat) is a symlink, realpath would only return the real projects dir joined
 * with the two names.
 */
function realMemoryDir(projectsDir: string, realProjectsDir: string, folder: Dirent): string | null {
  const memoryDir = path.join(projectsDir, folder.name, 'memory');
  if (folder.isDirectory()) {
    let s;
    try {
      s = lstatSync(memoryDir, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (s === undefined) return null;
    if (s.isDirectory()) return path.join(realProjectsDir, folder.name, 'memory');
    if (!s.isSymbolicLink()) return null;
  }
  return isDirectory(memoryDir) ? realOrResolved(memoryDir) : null;
}
