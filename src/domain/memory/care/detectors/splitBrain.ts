// split-brain: memory of one project in two places, only one of which Claude Code reads.
// - A project's default folder still holds topics while an autoMemoryDirectory setting makes Claude Code
//   read another folder (the listing marks the default inactive).
// - Memory folders of worktrees that no longer exist: Claude Code keys memory by the repository's root
//   now, and no session can start in a deleted worktree, so what was saved there is never read again.
//   A folder is taken for a deleted worktree of a repository when its working directory is gone and the
//   repository's git metadata still names it (`.git/worktrees/*/gitdir`), or it sat inside the
//   repository's own folder (`.claude/worktrees/<name>`, `.worktrees/<name>`).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { MemoryProblem } from '../../../../contract/memoryCare.js';
import type { MemorySource } from '../../../types.js';
import { readSmallTextSync } from '../../../files.js';
import { ALL_PROJECTS } from '../../sources.js';
import { problem } from '../context.js';

/** Worktree folders a repository keeps inside itself, as encoded in project keys. */
const NESTED_WORKTREE_KEYS = ['--claude-worktrees-', '--worktrees-', '-worktrees-'];
const MAX_WORKTREES_READ = 200;
/** A path and its newline; a file larger than any path is no gitdir record. */
const GITDIR_MAX_BYTES = 8192;

export function splitBrainProblems(sources: readonly MemorySource[], exists: (p: string) => boolean = existsSync): Map<string, MemoryProblem[]> {
  const out = new Map<string, MemoryProblem[]>();
  const add = (sourceId: string, p: MemoryProblem): void => {
    const list = out.get(sourceId) ?? [];
    list.push(p);
    out.set(sourceId, list);
  };
  const readers = sources.filter((s) => s.kind === 'custom' && s.active);
  for (const left of sources) {
    if (left.kind !== 'project' || left.active || left.entryCount === 0) continue;
    const instead = readers.filter((r) => (r.cwd !== null && r.cwd === left.cwd) || r.project === left.project);
    const chosen = instead.length > 0 ? instead : readers.filter((r) => r.project === ALL_PROJECTS);
    const where = chosen.length > 0 ? chosen.map((c) => c.dir).join(' and ') : 'the folder an autoMemoryDirectory setting names';
    add(left.id, problem({
      kind: 'split-brain',
      file: null,
      message: `Claude Code no longer reads this folder: an autoMemoryDirectory setting makes it read ${where}. ` +
        `The ${left.entryCount} ${left.entryCount === 1 ? 'topic' : 'topics'} here are left behind.`,
      related: chosen.map((c) => ({ sourceId: c.id, file: null })),
    }));
    for (const reader of chosen) {
      add(reader.id, problem({
        kind: 'split-brain',
        file: null,
        message: `${left.entryCount} ${left.entryCount === 1 ? 'topic' : 'topics'} of ${left.project} ${left.entryCount === 1 ? 'is' : 'are'} ` +
          `still in its default folder (${left.dir}), which Claude Code no longer reads.`,
        related: [{ sourceId: left.id, file: null }],
      }));
    }
  }
  for (const [worktree, repo] of deletedWorktrees(sources, exists)) {
    const cwd = worktree.cwd ?? worktree.id;
    add(worktree.id, problem({
      kind: 'split-brain',
      file: null,
      message: `This is the memory of a deleted worktree (${cwd}) of ${repo.project}: Claude Code keys memory by the repository ` +
        `root (${repo.dir}), so the ${worktree.entryCount} ${worktree.entryCount === 1 ? 'topic' : 'topics'} here are never read again.`,
      related: [{ sourceId: repo.id, file: null }],
    }));
    add(repo.id, problem({
      kind: 'split-brain',
      file: null,
      message: `${worktree.entryCount} ${worktree.entryCount === 1 ? 'topic is' : 'topics are'} kept in the memory folder of a deleted ` +
        `worktree (${cwd}) of this repository, which no session reads.`,
      related: [{ sourceId: worktree.id, file: null }],
    }));
  }
  return out;
}

/** Pairs of (memory folder of a deleted worktree, the repository's own memory source). */
function deletedWorktrees(sources: readonly MemorySource[], exists: (p: string) => boolean): [MemorySource, MemorySource][] {
  const projects = sources.filter((s) => s.kind === 'project');
  const repos = projects.filter((s) => s.cwd !== null && exists(s.cwd));
  // Worktree paths each repository's git metadata still names (until `git worktree prune`).
  const named = new Map<string, MemorySource>();
  let read = 0;
  for (const repo of repos) {
    const dir = path.join(repo.cwd!, '.git', 'worktrees');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (read++ >= MAX_WORKTREES_READ) break;
      // No gitdir file (or no path in it): not a worktree record git can use either.
      const gitdir = (readSmallTextSync(path.join(dir, name, 'gitdir'), GITDIR_MAX_BYTES) ?? '').trim();
      // `<worktree>/.git`: the worktree's own folder is its parent.
      if (gitdir !== '') named.set(path.dirname(path.resolve(dir, name, gitdir)), repo);
    }
  }
  const pairs: [MemorySource, MemorySource][] = [];
  for (const s of projects) {
    if (s.entryCount === 0 || repos.includes(s)) continue;
    if (s.cwd !== null && exists(s.cwd)) continue;
    let repo: MemorySource | undefined = s.cwd !== null ? named.get(s.cwd) : undefined;
    repo ??= s.cwd !== null
      ? repos.find((r) => s.cwd!.startsWith(r.cwd! + path.sep) && path.relative(r.cwd!, s.cwd!).split(path.sep).includes('worktrees'))
      : repos.find((r) => NESTED_WORKTREE_KEYS.some((k) => s.id.startsWith(r.id + k)));
    if (repo) pairs.push([s, repo]);
  }
  return pairs;
}
