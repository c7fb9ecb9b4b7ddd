// Writing the plans folder: every plan's markdown (a few carry the rare word) with a dated mtime, and what
// the facts say about the plans.

import fs from 'node:fs';
import path from 'node:path';
import type { Facts } from './facts.js';
import { BASE_TIME, DAY } from './home-layout.js';
import type { PlanSpec } from './home-shape.js';
import { planMarkdown } from './plan-text.js';
import type { Rng } from './rng.js';
import { sentence } from './vocabulary.js';

/** The share of plans with a session that are 1-4 MB. */
export const HUGE_PLAN_SHARE = 0.01;
export const HUGE_PLAN_MIN = 1024 * 1024;
export const HUGE_PLAN_MAX = 4 * 1024 * 1024;

export interface PlanFacts {
  plans: Facts['plans'];
  /** Filenames whose content contains the rare word, unsorted. */
  rareHits: string[];
  commonHits: number;
  planBytes: number;
}

export function writePlans(rng: Rng, plansDir: string, allPlans: PlanSpec[], rareWord: string, commonWord: string): PlanFacts {
  const rareTargets = new Set(rng.shuffle(allPlans.map((_, i) => i)).slice(0, Math.min(5, allPlans.length)));
  const factsPlans: Facts['plans'] = {};
  const rareHits: string[] = [];
  let commonHits = 0;
  let planBytes = 0;
  allPlans.forEach((plan, i) => {
    const cwd = plan.session ? plan.session.cwd : null;
    // A few plans run to megabytes (their Write lines too): a session's plan pasted with logs or data in it.
    const size = plan.session && rng.chance(HUGE_PLAN_SHARE) ? rng.logUniform(HUGE_PLAN_MIN, HUGE_PLAN_MAX) : rng.logUniform(1500, 24_000);
    let md = planMarkdown(rng, plan.title, size, cwd);
    if (rareTargets.has(i)) {
      const word = rng.chance(0.5) ? rareWord.toUpperCase() : rareWord;
      md += `\n## Notes\n\nRemember the ${word} flag when ${sentence(rng, 3, 8).toLowerCase()}\n`;
    }
    const filename = `${plan.stem}.md`;
    const file = path.join(plansDir, filename);
    fs.writeFileSync(file, md);
    const mtime = new Date(BASE_TIME - Math.floor(rng.next() * 45 * DAY));
    fs.utimesSync(file, mtime, mtime);
    planBytes += Buffer.byteLength(md);
    const lower = md.toLowerCase();
    if (lower.includes(rareWord)) rareHits.push(filename);
    if (lower.includes(commonWord)) commonHits++;
    factsPlans[filename] = plan.session
      ? { project: path.posix.basename(plan.session.cwd), sessionId: plan.session.sessionId }
      : { project: null, sessionId: null };
  });
  return { plans: factsPlans, rareHits, commonHits, planBytes };
}
