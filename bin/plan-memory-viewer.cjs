#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (built by `npm run build` / prepack).
// CommonJS, like dist/: an ES module entry costs Node's module loader at every start.
require('../dist/cli.js');
