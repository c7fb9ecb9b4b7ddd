#!/usr/bin/env node
// The package's entry point: the compiled CLI lives in dist/ (built by `npm run build`, and by the
// prepare and prepack scripts for installs from git and tarballs).
// CommonJS, like dist/: an ES module entry costs Node's module loader at every start.
const path = require('node:path');

const cli = path.join(__dirname, '..', 'dist', 'cli.js');
try {
  require.resolve(cli);
} catch {
  // A clone where `npm install` has not run, or an install from git whose prepare script npm skipped.
  process.stderr.write(
    `plan-memory-viewer: this copy has no build (${cli} is missing). In a clone, run \`npm install\`; installed from git, ` +
    'let npm run its prepare script (`npm approve-scripts plan-memory-viewer`, or `--allow-scripts=plan-memory-viewer` with -g) and install again.\n');
  process.exit(1);
}
require(cli);
