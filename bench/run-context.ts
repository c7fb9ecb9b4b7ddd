// What every phase of the run works with: the options, the home and its facts, the servers' log and cache
// dir, the read floor, the results being filled in, and the server running now.

import type fs from 'node:fs';
import type { Facts } from './facts.js';
import type { Options } from './options.js';
import type { Results } from './results.js';
import type { Server } from './server.js';

export interface RunContext {
  opts: Options;
  home: string;
  facts: Facts;
  /** Where the servers' stdout and stderr go. */
  log: fs.WriteStream;
  /** XDG_CACHE_HOME of the servers started on the home. */
  cacheDir: string;
  readFloor: Results['readFloor'];
  /** Filled in phase by phase, in the order of the results JSON; written even after an error. */
  results: Partial<Results>;
  /** Records a warning for the results and prints it. */
  warn: (msg: string) => void;
  /** The server started last, if any: stopped when the run ends, also after an error. */
  server: Server | null;
}
