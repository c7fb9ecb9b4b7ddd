// buildView() takes files in any order and keeps, per key, the value of the latest file (viewOrder), a
// session's or folder's cwd the surest one first (its rank): it must give exactly what folding the files
// in viewOrder, later over earlier unless less sure, gives. Few distinct keys, ranks and mtimes, so that
// files share slugs, sessions and folders and tie on mtime (the path decides then).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildView, viewOrder, type IndexView, type TrackedFile } from '../../src/domain/sessions/indexView.js';
import { emptyFacts, type CwdRank, type SessionCwd } from '../../src/domain/transcripts/logFacts.js';

const slug = fc.constantFrom('alpha-plan', 'beta-plan', 'gamma-plan');
const sessionId = fc.constantFrom('s1', 's2', 's3', 's4');
const cwd = fc.record({ cwd: fc.constantFrom('/w/a', '/w/b', '/w/c'), rank: fc.constantFrom<CwdRank>(0, 1, 2) });
const folder = fc.constantFrom('-w-a', '-w-b');

const trackedFile = fc.record({
  folder,
  mtimeMs: fc.constantFrom(1000, 2000, 2000.5, 3000),
  slugs: fc.array(fc.tuple(slug, sessionId), { maxLength: 3 }),
  sessions: fc.array(fc.tuple(sessionId, cwd), { maxLength: 3 }),
  folderCwd: fc.option(cwd),
}).map(({ folder, mtimeMs, slugs, sessions, folderCwd }): TrackedFile => ({
  folder,
  log: {
    size: 1, mtimeMs, ino: 1, offset: 1, lines: 1,
    facts: { ...emptyFacts(), links: { slugs: new Map(slugs), sessions: new Map(sessions), folderCwd } },
  },
}));

function setSurer(map: Map<string, SessionCwd>, key: string, value: SessionCwd): void {
  if ((map.get(key)?.rank ?? -1) <= value.rank) map.set(key, value);
}

/** The definition: every file in viewOrder, each overwriting what earlier ones set. */
function foldInOrder(files: ReadonlyMap<string, TrackedFile>, folders: ReadonlyMap<string, string>): IndexView {
  const view: IndexView = { slugs: new Map(), sessions: new Map(), folders: new Map(folders), folderCwds: new Map(), cwds: [] };
  for (const [, file] of [...files].sort(viewOrder)) {
    const { links } = file.log.facts;
    for (const [s, id] of links.slugs) view.slugs.set(s, id);
    for (const [id, c] of links.sessions) setSurer(view.sessions, id, c);
    if (links.folderCwd !== null) setSurer(view.folderCwds, file.folder, links.folderCwd);
  }
  view.cwds = [...new Set([...view.sessions.values(), ...view.folderCwds.values()].map((c) => c.cwd))].sort();
  return view;
}

const comparable = (view: IndexView): unknown => ({
  slugs: [...view.slugs].sort(),
  sessions: [...view.sessions].map(([id, c]) => [id, c.cwd]).sort(),
  folders: [...view.folders].sort(),
  folderCwds: [...view.folderCwds].map(([id, c]) => [id, c.cwd]).sort(),
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
