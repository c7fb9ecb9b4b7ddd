// Deterministic synthetic Claude Code home for the benchmark: plans, session logs (with huge tool-output
// lines), subagent logs, auto memory, and the facts a correct server must report about them.
//
// Module: `generateHome(dir, params)`. CLI:
//   node --import tsx bench/generate-home.ts --out DIR --plans 3000 --projects 300 --log-bytes 2GB \
//     --huge-share 0.02 --memory-sources 150 --topics 10 --seed 1
//
// Formats follow docs/claude-code-formats.md (Claude Code 2.1.329). Everything is derived from a
// seeded PRNG (no Math.random, no clock): the same params give the same facts and the same plan/memory bytes.
// Session logs differ between two output dirs only in the absolute `planFilePath` of plan-mode attachments.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Facts, HomeParams } from './facts.js';
import { shapeHome } from './home-shape.js';
import { writeMemory } from './memory.js';
import { writePlans } from './plan-files.js';
import { Rng } from './rng.js';
import { writeSessionLogs } from './session-logs.js';

export const GENERATOR_VERSION = 4;

/** "2GB", "100MB", "512KB", "123" (bytes). Binary units: 1 GB = 1024³ bytes. */
export function parseBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?\s*$/i.exec(text);
  if (!m) throw new Error(`not a size: ${text}`);
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.round(Number(m[1]) * mult);
}

function withDefaults(p: HomeParams): Required<HomeParams> {
  return { orphanShare: 0.15, agentShare: 0.05, ...p };
}

export async function generateHome(dir: string, params: HomeParams): Promise<Facts> {
  const p = withDefaults(params);
  if (p.plans < 0 || p.projects < 1 || p.logBytes < 0 || p.memorySources > p.projects) {
    throw new Error('invalid params: need projects >= 1 and memorySources <= projects');
  }
  const rng = new Rng(p.seed);
  const home = path.resolve(dir);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(path.join(home, 'plans'), { recursive: true });
  fs.mkdirSync(path.join(home, 'projects'), { recursive: true });
  const { projectCwd, base, agents, sessions } = shapeHome(rng, p);

  // Rare and common words.
  const letters = 'bcdfghjklmnpqrstvwxz';
  let rareWord = 'zq';
  let memWord = 'mq';
  for (let i = 0; i < 7; i++) {
    rareWord += letters[rng.int(0, letters.length - 1)];
    memWord += letters[rng.int(0, letters.length - 1)];
  }
  const allPlans = [...base, ...agents];
  const commonWord = 'test';

  const plansDir = path.join(home, 'plans');
  const written = writePlans(rng, plansDir, allPlans, rareWord, commonWord);
  const logs = writeSessionLogs(rng, home, plansDir, sessions, allPlans, p);
  const memory = writeMemory(rng, home, projectCwd, sessions, memWord, p);

  const orphanSlugs = base.filter((b) => !b.session && b.children === 0).map((b) => b.stem).sort();
  const facts: Facts = {
    generator: GENERATOR_VERSION,
    params: p,
    counts: {
      plans: allPlans.length,
      basePlans: base.length,
      agentPlans: agents.length,
      linkedPlans: allPlans.filter((x) => x.session).length,
      orphanPlans: allPlans.filter((x) => !x.session).length,
      projects: p.projects,
      sessionFiles: logs.sessions.filter((s) => !s.subagent).length,
      subagentFiles: logs.sessions.filter((s) => s.subagent).length,
      logBytes: logs.logBytes,
      logLines: logs.lines.lines,
      hugeLines: logs.lines.hugeLines,
      hugeBytes: logs.lines.hugeBytes,
      tornLines: logs.lines.torn,
      planBytes: written.planBytes,
      memorySources: p.memorySources,
      memoryEntries: memory.memoryEntries,
      memoryBytes: memory.memoryBytes,
    },
    plans: written.plans,
    rare: { word: rareWord, filenames: written.rareHits.sort() },
    common: { word: commonWord, count: written.commonHits },
    memory: { word: memWord, ids: memory.memIds.sort(), sources: p.memorySources, entries: memory.memoryEntries },
    sessions: logs.sessions,
    orphanSlugs,
    history: logs.history,
    archived: logs.archived,
  };
  const factsFile = path.join(home, 'facts.json');
  fs.writeFileSync(factsFile + '.tmp', JSON.stringify(facts, null, 1));
  fs.renameSync(factsFile + '.tmp', factsFile);
  return facts;
}

// ---------------------------------------------------------------------------------------------------------
// CLI

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      plans: { type: 'string', default: '3000' },
      projects: { type: 'string', default: '300' },
      'log-bytes': { type: 'string', default: '2GB' },
      'huge-share': { type: 'string', default: '0.02' },
      'memory-sources': { type: 'string', default: '150' },
      topics: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      'orphan-share': { type: 'string' },
      'agent-share': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.out) {
    console.log('usage: node --import tsx bench/generate-home.ts --out DIR [--plans N] [--projects N] [--log-bytes 2GB]\n' +
      '  [--huge-share 0.02] [--memory-sources N] [--topics N] [--seed N] [--orphan-share 0.15] [--agent-share 0.05]');
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const params: HomeParams = {
    plans: Number(values.plans), projects: Number(values.projects), logBytes: parseBytes(values['log-bytes']),
    hugeShare: Number(values['huge-share']), memorySources: Number(values['memory-sources']),
    topics: Number(values.topics), seed: Number(values.seed),
  };
  if (values['orphan-share'] !== undefined) params.orphanShare = Number(values['orphan-share']);
  if (values['agent-share'] !== undefined) params.agentShare = Number(values['agent-share']);
  const t0 = performance.now();
  const facts = await generateHome(values.out, params);
  const secs = (performance.now() - t0) / 1000;
  console.log(`wrote ${values.out} in ${secs.toFixed(1)} s`);
  console.log(JSON.stringify(facts.counts, null, 2));
}

const invoked = process.argv[1] ? pathToFileURL(fs.realpathSync(process.argv[1])).href : '';
if (import.meta.url === invoked) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
