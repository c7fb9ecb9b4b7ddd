// The benchmark home: generated once per set of params (or reused), and the undo journal: the runner
// mutates the home, the journal restores it even after a crash.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Facts } from './facts.js';
import { GENERATOR_VERSION, generateHome } from './generate-home.js';
import type { Options } from './options.js';

interface Journal {
  remove: string[];
  truncate: { file: string; size: number }[];
}

function journalPath(home: string): string {
  return `${home}.bench-undo.json`;
}

function loadJournal(home: string): Journal {
  try {
    return JSON.parse(fs.readFileSync(journalPath(home), 'utf8')) as Journal;
  } catch {
    return { remove: [], truncate: [] };
  }
}

function saveJournal(home: string, j: Journal): void {
  fs.writeFileSync(journalPath(home), JSON.stringify(j));
}

export function undo(home: string): void {
  const j = loadJournal(home);
  for (const f of j.remove) fs.rmSync(f, { recursive: true, force: true });
  // Truncate in reverse order of recording: the first recorded size of a file is the original one.
  for (const t of [...j.truncate].reverse()) {
    try {
      fs.truncateSync(t.file, t.size);
    } catch {
      /* gone */
    }
  }
  fs.rmSync(journalPath(home), { force: true });
}

export function recordRemove(home: string, file: string): void {
  const j = loadJournal(home);
  j.remove.push(file);
  saveJournal(home, j);
}

export function recordTruncate(home: string, file: string): void {
  const j = loadJournal(home);
  j.truncate.push({ file, size: fs.statSync(file).size });
  saveJournal(home, j);
}

export async function prepareHome(opts: Options): Promise<{ home: string; facts: Facts; generatedMs: number | null }> {
  const key = createHash('sha1').update(JSON.stringify({ v: GENERATOR_VERSION, ...opts.params })).digest('hex').slice(0, 12);
  const home = opts.home ?? path.join(os.tmpdir(), 'plan-memory-viewer-bench', `home-${key}`);
  undo(home);
  const factsFile = path.join(home, 'facts.json');
  if (fs.existsSync(factsFile)) {
    const facts = JSON.parse(fs.readFileSync(factsFile, 'utf8')) as Facts;
    if (facts.generator === GENERATOR_VERSION) return { home, facts, generatedMs: null };
  }
  if (opts.home && fs.existsSync(home) && fs.readdirSync(home).length > 0 && !fs.existsSync(factsFile)) {
    throw new Error(`${home} is not empty and holds no facts.json: refusing to overwrite it`);
  }
  console.log(`generating home in ${home} ...`);
  const t0 = performance.now();
  const facts = await generateHome(home, opts.params);
  return { home, facts, generatedMs: performance.now() - t0 };
}
