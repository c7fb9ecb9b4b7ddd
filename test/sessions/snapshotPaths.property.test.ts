import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLogSegments, mayContainLogs } from '../../src/domain/sessions/logFiles.js';
import { dirPath, logPath } from '../../src/domain/sessions/snapshot.js';
import { SID_A } from './helpers.js';

const PROJECTS = path.join(path.sep, 'home', 'u', '.claude', 'projects');

/** The rule dirPath() must keep: '' or plain segments of a directory that may hold logs. */
function dirReference(rel: string): string | null {
  if (rel === '') return PROJECTS;
  const seg = rel.split('/');
  if (seg.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return null;
  return mayContainLogs(seg) ? path.join(PROJECTS, ...seg) : null;
}

/** The rule logPath() must keep: `/`-separated plain segments that name a log, joined under the projects dir. */
function reference(rel: string): { abs: string; folder: string } | null {
  const seg = rel.split('/');
  if (seg.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return null;
  return isLogSegments(seg) ? { abs: path.join(PROJECTS, ...seg), folder: seg[0]! } : null;
}

// Pieces that sit on either side of each rule: session ids in and out of shape, folder names that are
// and are not allowed, the subagent tree's names.
const fixed = fc.constantFrom(
  SID_A, SID_A.toUpperCase(), SID_A.slice(1), `${SID_A}x`, `${SID_A}.jsonl`, `${SID_A.toUpperCase()}.jsonl`,
  `${SID_A}.jsonl.tmp.1`, '-home-alice-src-webapp', 'a', '.hidden', '.', '..', '', 'a\\b', 'memory', 'tool-results',
  'subagents', 'workflows', 'agent-a1.jsonl', 'agent-a1.orphaned-1.jsonl', 'x.jsonl', '.jsonl',
);
/** A session id (as a file or directory name) with one character changed anywhere: uppercase, out of range or gone. */
const nearSession = fc.tuple(fc.nat(SID_A.length - 1), fc.constantFrom('A', 'g', '-', ''), fc.boolean())
  .map(([at, char, file]) => `${SID_A.slice(0, at)}${char}${SID_A.slice(at + 1)}${file ? '.jsonl' : ''}`);
const piece = fc.oneof(fixed, nearSession);

describe('logPath and dirPath (restoring a snapshot)', () => {
  it('accepts exactly the paths of logs, whatever their shape', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const rel = pieces.join('/');
        expect(logPath(PROJECTS, rel)).toEqual(reference(rel));
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts exactly the directories that may hold logs, whatever their shape', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 0, maxLength: 6 }), (pieces) => {
        const rel = pieces.join('/');
        expect(dirPath(PROJECTS, rel)).toEqual(dirReference(rel));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the common `<folder>/<session>.jsonl` and a subagent log alike', () => {
    expect(logPath(PROJECTS, `-p/${SID_A}.jsonl`)).toEqual({ abs: path.join(PROJECTS, '-p', `${SID_A}.jsonl`), folder: '-p' });
    expect(logPath(PROJECTS, `-p/${SID_A}/subagents/agent-a1.jsonl`))
      .toEqual({ abs: path.join(PROJECTS, '-p', SID_A, 'subagents', 'agent-a1.jsonl'), folder: '-p' });
    for (const rel of [`.p/${SID_A}.jsonl`, `/${SID_A}.jsonl`, `-p//${SID_A}.jsonl`, `a\\b/${SID_A}.jsonl`, `../${SID_A}.jsonl`]) {
      expect(logPath(PROJECTS, rel), rel).toBeNull();
    }
  });
});
