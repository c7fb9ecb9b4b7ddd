// `npm run build`: every step of a build into dist/, then the record that it is complete (see built.js).
// `--if-needed` (prepare, prepack, npm test, npm start) does nothing when dist/ already holds a build of
// the current sources: `npm ci` builds once through prepare, and the test run that follows reuses it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { forgetBuilt, isBuilt, recordBuilt, ROOT } from './built.js';

const STEPS = [
  // The server bundles.
  'build-server.js',
  // The UI, then the notices of everything the server and UI bundles contain.
  'build-web.js',
  'build-notices.js',
];

if (process.argv.includes('--if-needed') && isBuilt()) {
  // On stderr: a lifecycle script's stdout would land in the middle of `npm pack --json`.
  console.error('plan-memory-viewer: dist/ is up to date with the sources');
} else {
  forgetBuilt();
  for (const step of STEPS) {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', step)], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`plan-memory-viewer: build step ${step} failed`);
      process.exit(result.status ?? 1);
    }
  }
  recordBuilt();
}
