// Phase 7, freshness: how soon the plan list shows a new plan (atomic write), its deletion, and a log line
// linking an orphan plan.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HomeChanges } from './home-changes.js';
import { recordRemove, recordTruncate } from './home.js';
import { conversationLine, type LineContext } from './log-lines.js';
import type { Results } from './results.js';
import { Rng } from './rng.js';
import type { RunContext } from './run-context.js';
import type { Server } from './server.js';

export async function measureFreshness(run: RunContext, server: Server, changes: HomeChanges): Promise<void> {
  const { opts, home, results, warn } = run;
  const { poller, settle, slugless, orphans } = changes;
  const rng = new Rng(opts.params.seed + 1000);
  const fresh: Results['freshness'] = { newPlanMs: [], deletedPlanGoneMs: [], linkMs: [] };
  const tag = Date.now().toString(36);
  const plansDir = path.join(home, 'plans');
  for (let k = 0; k < opts.rounds; k++) {
    await settle(server.pid);
    const name = `bench-fresh-${tag}-${k}-happy-otter.md`;
    const file = path.join(plansDir, name);
    const tmp = `${file}.tmp.${process.pid}.${randomBytes(6).toString('hex')}`;
    recordRemove(home, file);
    recordRemove(home, tmp);
    const t = performance.now();
    fs.writeFileSync(tmp, `# Plan: Fresh plan ${k}\n\n## Context\n\nWritten by the benchmark.\n`);
    fs.renameSync(tmp, file);
    fresh.newPlanMs.push(await poller.until(t, (m) => m.has(name)));
    await settle(server.pid);
    const td = performance.now();
    fs.rmSync(file);
    fresh.deletedPlanGoneMs.push(await poller.until(td, (m) => !m.has(name)));
  }
  const midSessions = slugless.slice(Math.floor(slugless.length / 2));
  for (let k = 0; k < opts.rounds; k++) {
    const s = midSessions[k];
    const slug = orphans.shift();
    if (!s || !slug) {
      warn('not enough slugless sessions or orphan plans for the link test');
      break;
    }
    await settle(server.pid);
    const file = path.join(home, s.file);
    recordTruncate(home, file);
    const ctx: LineContext = { cwd: s.cwd, sessionId: s.sessionId, slug, agentId: null, time: Date.now(), parent: null };
    const line = conversationLine(rng, ctx, 'Let us plan this.');
    const t = performance.now();
    fs.appendFileSync(file, line);
    fresh.linkMs.push(await poller.until(t, (m) => {
      const p = m.get(`${slug}.md`);
      return p?.project === s.project && p.sessionId === s.sessionId;
    }));
  }
  results.freshness = fresh;
  if (fresh.newPlanMs.includes(null)) warn('a new plan was not listed within 15 s');
  if (fresh.linkMs.includes(null)) warn('an appended log line did not link its plan within 15 s');
  console.log(`fresh: new plan ${fresh.newPlanMs.map((x) => x?.toFixed(0)).join('/')} ms, ` +
    `link ${fresh.linkMs.map((x) => x?.toFixed(0)).join('/')} ms`);
}
