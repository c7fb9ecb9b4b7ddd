// Pins DERIVATION_VERSION (src/domain/derivation.ts) to what the rules derive: the facts the viewer
// persists, derived here from the fixture home next to this file, must equal the ones recorded in
// golden.json under the current version. A rule whose output changes fails this test until the version is
// bumped (so every cache an older build wrote is set aside) and the facts are recorded again:
//
//   UPDATE_GOLDEN=1 npx vitest run test/derivation/golden.test.ts
//
// which refuses to record changed facts under an unchanged version.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanMetadataSchema } from '../../src/contract/shapes.js';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { Viewer } from '../../src/viewer.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const GOLDEN = path.join(import.meta.dirname, 'golden.json');

interface Golden {
  derivation: number;
  facts: unknown;
}

let root: string;
let viewer: Viewer;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'pmv-golden-'));
  await cp(FIXTURES, path.join(root, 'claude'), { recursive: true });
  viewer = await Viewer.open({ claudeDir: path.join(root, 'claude'), homeDir: root, logger: { warn: () => undefined }, watch: false, cacheDir: null });
});

afterAll(async () => {
  await viewer?.close();
  await rm(root, { recursive: true, force: true });
});

/** A plan's fields the file system decides (its place and times): every other field of the one schema is derived. */
const FILE_SYSTEM_FIELDS = new Set(['filepath', 'modified', 'created']);
const PLAN_FIELDS = Object.keys(PlanMetadataSchema.properties).filter((key) => !FILE_SYSTEM_FIELDS.has(key));

/** Everything derived from the fixture files that a cache keeps, without what the file system decides (times, paths). */
async function derivedFacts(): Promise<unknown> {
  const claude = path.join(root, 'claude');
  // By name: the copies' times (and so the list's order) differ from run to run.
  const plans = [...viewer.plans.list()].sort((a, b) => (a.filename < b.filename ? -1 : 1));
  return {
    plans: plans.map((plan) => Object.fromEntries(PLAN_FIELDS.map((key) => [key, plan[key as keyof typeof plan]]))),
    links: plans.map((p) => ({ plan: p.filename, link: viewer.sessions.linkForPlan(p.filename) })),
    cwds: viewer.sessions.knownCwds(),
    projectFolders: viewer.sessions.projectFolders().map((f) => ({ key: f.key, dir: path.relative(claude, f.dir), cwd: f.cwd })),
    transcripts: transcriptFacts(claude),
  };
}

/** Every fact the one transcript reader's extractors keep of each log, whatever they are, by log. */
function transcriptFacts(claude: string): unknown {
  return [...viewer.sessions.logs()]
    .map(([log, facts]) => ({ log: path.relative(claude, log), facts: plain(facts) }))
    .sort((a, b) => (a.log < b.log ? -1 : 1));
}

/** Maps as objects, every object's keys sorted, so the facts compare as JSON whatever order they were built in. */
function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)).map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, plain((value as Record<string, unknown>)[k])]));
  return value;
}

describe('the derivation version', () => {
  it('names the rules that derived the recorded facts', async () => {
    const facts = JSON.parse(JSON.stringify(await derivedFacts())) as unknown;
    const golden = JSON.parse(await readFile(GOLDEN, 'utf8').catch(() => '{"derivation":0,"facts":null}')) as Golden;
    const same = JSON.stringify(plain(facts)) === JSON.stringify(plain(golden.facts));
    if (process.env.UPDATE_GOLDEN) {
      if (!same && golden.derivation === DERIVATION_VERSION) {
        throw new Error(`The derived facts changed but DERIVATION_VERSION is still ${DERIVATION_VERSION}: bump it in src/domain/derivation.ts first.`);
      }
      await writeFile(GOLDEN, JSON.stringify({ derivation: DERIVATION_VERSION, facts }, null, 2) + '\n');
      return;
    }
    if (!same) {
      expect.fail(golden.derivation === DERIVATION_VERSION
        ? `The facts derived from test/derivation/fixtures changed: bump DERIVATION_VERSION in src/domain/derivation.ts ` +
          `(now ${DERIVATION_VERSION}), then record them with UPDATE_GOLDEN=1 npx vitest run test/derivation/golden.test.ts.\n` +
          `Recorded: ${JSON.stringify(golden.facts)}\nDerived:  ${JSON.stringify(facts)}`
        : `DERIVATION_VERSION is ${DERIVATION_VERSION} but golden.json was recorded under ${golden.derivation}: ` +
          'record the facts with UPDATE_GOLDEN=1 npx vitest run test/derivation/golden.test.ts.');
    }
    expect(golden.derivation).toBe(DERIVATION_VERSION);
  });
});
