// The start-up sweep: every session log with its lstat and every plan with its stat, taken in one pass
// by a worker thread while the main thread parses the caches and builds the server. With a restored
// index and plan cache that is all a restart needs to learn what moved; only moved files are read.
import { lstatSync } from 'node:fs';
import { statFacts, type StatFacts } from '../files.js';
import { statPlanFolder } from '../plans/planReads.js';
import { discoverLogsSync } from './logFiles.js';

export interface Sweep {
  /** Project folder keys under the projects dir. */
  folders: string[];
  /** Every log found, with its lstat (null: it vanished between the listing and the lstat). */
  logs: [string, StatFacts | null][];
  /** Per plan folder asked for: its plan paths with their stat (a missing folder has none). */
  plans: [string, [string, StatFacts | null][]][];
  warnings: string[];
}

export function sweepSync(projectsDir: string, planFolders: readonly string[]): Sweep {
  const warnings: string[] = [];
  const found = discoverLogsSync(projectsDir, [], (message) => warnings.push(message));
  const logs = found.files.map((file): [string, StatFacts | null] => {
    try {
      return [file, statFacts(lstatSync(file))];
    } catch {
      return [file, null];
    }
  });
  const plans = planFolders.map((folder): [string, [string, StatFacts | null][]] => [folder, statPlanFolder(folder)]);
  return { folders: found.folders, logs, plans, warnings };
}
