#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (built by `npm run build` / prepack).
import '../dist/cli.js';
