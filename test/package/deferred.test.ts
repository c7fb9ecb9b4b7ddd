// Libraries a start does not run are bundled apart and reached through stand-ins (scripts/deferred-modules.js,
// docs/decisions.md D48): the stand-in loads nothing until it is used, then answers as the module; the built
// bundles leave those libraries out; and the built service still reaches them when a request needs them.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_APART, deferModules, libFile } from '../../scripts/deferred-modules.js';
import { bannerUrl, runCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

const DIST = path.resolve(import.meta.dirname, '../../dist');
const require = createRequire(import.meta.url);

interface Loads {
  __deferredLoads?: Record<string, number>;
}
const loads = (): Record<string, number> => ((globalThis as Loads).__deferredLoads ??= {});

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pmv-deferred-'));
  const count = (name: string): string =>
    `(globalThis.__deferredLoads ??= {})[${JSON.stringify(name)}] = ((globalThis.__deferredLoads ??= {})[${JSON.stringify(name)}] ?? 0) + 1;\n`;
  // A namespace of functions and a class, as yaml is; and a callable module with properties, as @fastify/ajv-compiler is.
  await mkdir(path.join(dir, 'node_modules', 'fake-namespace'), { recursive: true });
  await writeFile(path.join(dir, 'node_modules', 'fake-namespace', 'index.js'), `${count('fake-namespace')}
class Thing { constructor(x) { this.x = x; } twice() { return this.x * 2; } }
module.exports = { parse: (s) => s.split(','), Thing, version: '1.2.3' };
`);
  await mkdir(path.join(dir, 'node_modules', 'fake-callable'), { recursive: true });
  await writeFile(path.join(dir, 'node_modules', 'fake-callable', 'index.js'), `${count('fake-callable')}
function make(n) { return n + 1; }
make.helper = () => 'helped';
module.exports = make;
module.exports.default = make;
`);
  await writeFile(path.join(dir, 'entry.ts'), `import { parse, Thing, version } from 'fake-namespace';
import make, { helper } from 'fake-callable';
const held = require('fake-namespace');
export function use() {
  const thing = new Thing(21);
  return { parsed: parse('a,b'), twice: thing.twice(), isThing: thing instanceof held.Thing, version, made: make(1), helper: helper() };
}
`);
  const specifiers = ['fake-namespace', 'fake-callable'];
  await build({
    absWorkingDir: dir, entryPoints: ['entry.ts'], outfile: path.join(dir, 'out', 'main.cjs'), bundle: true, platform: 'node',
    format: 'cjs', logLevel: 'silent', plugins: [deferModules(specifiers)],
  });
  for (const specifier of specifiers) {
    await build({
      absWorkingDir: dir, stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: dir },
      outfile: path.join(dir, 'out', libFile(specifier)), bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent',
    });
  }
  // The build read each module's names by loading it here; what follows counts the bundle's loads only.
  for (const key of Object.keys(loads())) delete loads()[key];
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a deferred module', () => {
  it('is left out of the bundle that imports it', async () => {
    const main = await readFile(path.join(dir, 'out', 'main.cjs'), 'utf8');
    expect(main).not.toContain('node_modules/fake-namespace');
    expect(main).not.toContain('node_modules/fake-callable');
    expect(main).toContain('"./lib/fake-namespace.cjs"');
  });

  it('is not loaded by the bundle that imports it until it is used, then answers as the module itself', () => {
    const main = require(path.join(dir, 'out', 'main.cjs')) as { use: () => Record<string, unknown> };
    expect(loads()).toEqual({});
    expect(Object.keys(require.cache).filter((file) => file.includes(`${path.sep}lib${path.sep}fake-`))).toEqual([]);
    expect(main.use()).toEqual({ parsed: ['a', 'b'], twice: 42, isThing: true, version: '1.2.3', made: 2, helper: 'helped' });
    main.use();
    expect(loads()).toEqual({ 'fake-namespace': 1, 'fake-callable': 1 });
  });
});

describe('the built service', () => {
  it('leaves every deferred package out of the bundles a start compiles, and ships each apart', async () => {
    const started = await Promise.all(['app.cjs', 'server.cjs'].map((f) => readFile(path.join(DIST, f), 'utf8')));
    // The check can see a bundled package: fastify is in the server bundle.
    expect(started[1]).toContain('"node_modules/fastify/fastify.js"');
    for (const specifier of BUNDLED_APART) {
      for (const bundle of started) expect(bundle).not.toContain(`"node_modules/${specifier}/`);
      expect(existsSync(path.join(DIST, libFile(specifier))), specifier).toBe(true);
    }
  });

  it('loads a deferred library when a request needs it: YAML frontmatter, a route validator', async () => {
    const home = await TempHome.create();
    try {
      const memory = path.join('projects', '-work-app', 'memory');
      await home.write(path.join(memory, 'MEMORY.md'), '- [Folded](folded.md) — a topic\n');
      // A block scalar is not a flat `key: value` line: only the YAML parser reads it.
      await home.write(path.join(memory, 'folded.md'), '---\nname: >-\n  Folded\n  name\ntype: project\n---\n\nBody.\n');
      const run = runCli(['--claude-dir', home.claude, '--port', '0']);
      try {
        const url = await bannerUrl(run);
        const memoryAnswer = await (await fetch(`${url}api/memory`)).json() as { entries: { filename: string; name: string }[] };
        expect(memoryAnswer.entries.find((e) => e.filename === 'folded.md')?.name).toBe('Folded name');
        const bad = await fetch(`${url}api/find?q=x&limit=abc`);
        expect(bad.status).toBe(400);
        expect(await bad.text()).toBe('Bad request');
      } finally {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    } finally {
      await home.cleanup();
    }
  }, 60_000);
});
