// Appends are folded into the index view in place (patchView) instead of rebuilding it; after any mix of
// appends, rewrites, touches and removals, the answers must equal those of an index built from scratch.
// The view's stamp names its answers: equal stamps, equal answers, in the live index and in one restored
// from its snapshot (what lets a restart serve its saved plan list without looking up a link).
import { appendFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { conversationLine, SID_A, SID_B, SID_C, tempHome, type TempHome } from './helpers.js';

let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

const SIDS = [SID_A, SID_B, SID_C];
const CWDS = ['/w/one', '/w/two', '/w/one/sub'];
const FILES = ['-w-one/a.jsonl', '-w-one/b.jsonl', '-w-two/c.jsonl'].map((f, i) => f.replace(/[abc]\.jsonl$/, `${SIDS[i]}.jsonl`));
const SLUGS = ['alpha-one', 'beta-two', 'gamma-three', 'delta-four'];

type Step = { kind: 'append' | 'rewrite' | 'remove' | 'touch'; file: number; sid: number; cwd: number; slug: number | null; time: number };

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('append', 'append', 'append', 'rewrite', 'remove', 'touch'),
  file: fc.integer({ min: 0, max: 2 }),
  sid: fc.integer({ min: 0, max: 2 }),
  cwd: fc.integer({ min: 0, max: 2 }),
  slug: fc.option(fc.integer({ min: 0, max: 3 })),
  // Few distinct times, so equal mtimes (ties broken by path) happen often.
  time: fc.integer({ min: 1, max: 6 }),
});

function answers(index: SessionIndex): unknown {
  return {
    links: SLUGS.map((s) => index.linkForPlan(`${s}.md`)),
    cwds: index.knownCwds(),
    folders: index.projectFolders(),
    sessions: SIDS.map((s) => index.cwdForSession(s)),
  };
}

/** A fresh home with one log per file, and an index that has read it. */
async function startIndex(): Promise<SessionIndex> {
  await rm(home.projectsDir, { recursive: true, force: true });
  for (let i = 0; i < FILES.length; i++) {
    const file = await home.write(FILES[i]!, conversationLine({ sessionId: SIDS[i]!, cwd: CWDS[i]! }));
    await utimes(file, 1000, 1000);
  }
  const live = new SessionIndex({ projectsDir: home.projectsDir });
  await live.refresh();
  return live;
}

/** Makes the step's change on disk and tells the index. */
async function apply(live: SessionIndex, s: Step): Promise<void> {
  const file = `${home.projectsDir}/${FILES[s.file]}`;
  const line = conversationLine({ sessionId: SIDS[s.sid]!, cwd: CWDS[s.cwd]!, ...(s.slug === null ? {} : { slug: SLUGS[s.slug] }) });
  if (s.kind === 'append') await appendFile(file, line);
  // A log is replaced, never rewritten in place (a same-size rewrite in place is indistinguishable from
  // no change for any incremental reader): a new inode.
  else if (s.kind === 'rewrite') await writeFile(`${file}.new`, line).then(() => rename(`${file}.new`, file));
  else if (s.kind === 'remove') await rm(file, { force: true });
  if (s.kind !== 'remove') await utimes(file, 1000 + s.time, 1000 + s.time).catch(() => undefined);
  await live.updateFile(file);
}

describe('patched index view', () => {
  it('answers exactly as a rebuilt one after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const live = await startIndex();
        for (const s of steps) {
          await apply(live, s);
          const fresh = new SessionIndex({ projectsDir: home.projectsDir });
          await fresh.refresh();
          expect(answers(live)).toEqual(answers(fresh));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('the view stamp', () => {
  it('names the answers: equal stamps give equal answers, before and after a save and restore', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const seen = new Map<string, unknown>();
        const record = (index: SessionIndex): void => {
          const now = answers(index);
          if (seen.has(index.viewStamp())) expect(now).toEqual(seen.get(index.viewStamp()));
          else seen.set(index.viewStamp(), now);
        };
        let live = await startIndex();
        record(live);
        for (const [i, s] of steps.entries()) {
          await apply(live, s);
          // Half the time the index goes on restored from its snapshot, as after a restart.
          if (i % 2 === 1) {
            const restored = SessionIndex.fromJSON(JSON.parse(JSON.stringify(live.toJSON())), { projectsDir: home.projectsDir })!;
            expect(restored.viewStamp()).toBe(live.viewStamp());
            live = restored;
          }
          record(live);
        }
        // Answers changed along the way, so did the stamp: the check above compared something.
        if (new Set([...seen.values()].map((a) => JSON.stringify(a))).size > 1) expect(seen.size).toBeGreaterThan(1);
      }),
      { numRuns: 60 },
    );
  });

  it('is new in every process, and in every index that is not restored', () => {
    const a = new SessionIndex({ projectsDir: home.projectsDir });
    const b = new SessionIndex({ projectsDir: home.projectsDir });
    expect(a.viewStamp()).not.toBe(b.viewStamp());
  });
});
