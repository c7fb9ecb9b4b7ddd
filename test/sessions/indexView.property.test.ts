// buildView() takes files in any order and keeps, per key, the value of the latest file (viewOrder): it
// must give exactly what folding the files in viewOrder, later over earlier, gives. Few distinct keys and
// mtimes, so that files share slugs, sessions and folders and tie on mtime (the path decides then).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildView, viewOrder, type IndexView, type TrackedFile } from '../../src/domain/sessions/indexView.js';

const slug = fc.constantFrom('alpha-plan', 'beta-plan', 'gamma-plan');
const sessionId = fc.constantFrom('s1', 's2', 's3', 's4');
const cwd = fc.constantFrom('/w/a', '/w/b', '/w/c');
const folder = fc.constantFrom('-w-a', '-w-b');

const trackedFile = fc.record({
  folder,
  mtimeMs: fc.constantFrom(1000, 2000, 2000.5, 3000),
  slugs: fc.array(fc.tuple(slug, sessionId), { maxLength: 3 }),
  sessions: fc.array(fc.tuple(sessionId, cwd), { maxLength: 3 }),
  lastCwd: fc.option(cwd),
}).map(({ folder, mtimeMs, slugs, sessions, lastCwd }): TrackedFile => ({
  folder,
  log: {
    size: 1, mtimeMs, ino: 1, offset: 1,
    facts: { slugs: new Map(slugs), sessions: new Map(sessions), lastCwd },
  },
}));

/** The definition: every file in viewOrder, each overwriting what earlier ones set. */
function foldInOrder(files: ReadonlyMap<string, TrackedFile>, folders: ReadonlyMap<string, string>): IndexView {
  const view: IndexView = { slugs: new Map(), sessions: new Map(), folders: new Map(folders), folderCwds: new Map(), cwds: [] };
  for (const [, file] of [...files].sort(viewOrder)) {
    for (const [s, id] of file.log.facts.slugs) view.slugs.set(s, id);
    for (const [id, c] of file.log.facts.sessions) view.sessions.set(id, c);
    if (file.log.facts.lastCwd !== null) view.folderCwds.set(file.folder, file.log.facts.lastCwd);
  }
  view.cwds = [...new Set([...view.sessions.values(), ...view.folderCwds.values()])].sort();
  return view;
}

const comparable = (view: IndexView): unknown => ({
  slugs: [...view.slugs].sort(),
  sessions: [...view.sessions].sort(),
  folders: [...view.folders].sort(),
  folderCwds: [...view.folderCwds].sort(),
  cwds: view.cwds,
});

describe('buildView', () => {
  it('equals folding the files in viewOrder, whatever order they are given in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom('/p/-w-a/1.jsonl', '/p/-w-a/2.jsonl', '/p/-w-b/3.jsonl', '/p/-w-b/x/4.jsonl', '/p/-w-b/5.jsonl'), trackedFile), {
          selector: ([p]) => p,
          maxLength: 5,
        }),
        (entries) => {
          const folders = new Map([['-w-a', '/p/-w-a'], ['-w-b', '/p/-w-b']]);
          const files = new Map(entries);
          expect(comparable(buildView(files, folders))).toEqual(comparable(foldInOrder(files, folders)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
