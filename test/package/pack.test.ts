// What `npm pack` (and so `npm publish`, and an install from git, which packs the prepared clone) puts
// in the package: what users run and the notices that must go with it, nothing built for this checkout
// only (source maps, the build's records), and the metadata a
// registry page and `npm install` read. The installs themselves are test/install/ (npm run test:install).
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Packed {
  name: string;
  version: string;
  files: { path: string; size: number }[];
  unpackedSize: number;
}

let packed: Packed;
let manifest: Record<string, unknown>;

beforeAll(async () => {
  // --ignore-scripts: the build is already there (npm test makes it); prepack would only find it current.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  packed = (JSON.parse(out) as Packed[])[0]!;
  manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
}, 120_000);

describe('the package', () => {
  it('holds the entry, the bundles (those required on first use too), the UI, the demo, the license and the third-party notices', () => {
    const files = packed.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'bin/plan-memory-viewer.cjs', 'dist/cli.js', 'dist/app.cjs',
      'dist/server.cjs', 'dist/scanWorker.js', 'dist/lib/yaml.cjs', 'dist/lib/fastify-ajv-compiler.cjs', 'dist/package.json', 'dist/web/index.html', 'dist/THIRD-PARTY-NOTICES.txt', 'demo/manifest.json']) {
      expect(files).toContain(file);
    }
    expect(files.some((f) => /^dist\/web\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it('holds nothing made for this checkout only: no source maps, no build records', () => {
    const files = packed.files.map((f) => f.path);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/.build') || f.includes('LEGAL'))).toEqual([]);
    // Nothing from the sources, the tests or the tooling either.
    expect(files.filter((f) => !/^(bin|dist|demo)\//.test(f) && !['package.json', 'README.md', 'LICENSE'].includes(f))).toEqual([]);
  });

  it('needs no runtime dependency: everything it runs is bundled', () => {
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    // What the bundles contain is there to build them.
    const dev = manifest.devDependencies as Record<string, string>;
    for (const name of ['fastify', '@fastify/swagger', '@fastify/ajv-compiler', '@fastify/type-provider-typebox', 'typebox', 'yaml']) {
      expect(dev[name]).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('carries the metadata the registry and npm read', () => {
    expect(packed.name).toBe('plan-memory-viewer');
    expect(manifest.license).toBe('MIT');
    expect(manifest.bin).toEqual({ 'plan-memory-viewer': 'bin/plan-memory-viewer.cjs' });
    expect(manifest.engines).toEqual({ node: '>=20.19' });
    expect((manifest.keywords as string[]).length).toBeGreaterThan(3);
    expect(typeof manifest.description).toBe('string');
    // One repository, named the same way in all three.
    const repository = manifest.repository as { type: string; url: string };
    expect(repository.type).toBe('git');
    const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(repository.url)?.[1];
    expect(repo).toBeDefined();
    expect(manifest.homepage).toBe(`${repo}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repo}/issues` });
  });

  it('builds itself when installed from git (prepare) or packed (prepack), only when dist/ is not current', () => {
    const scripts = manifest.scripts as Record<string, string>;
    expect(scripts.prepare).toBe('node scripts/build.js --if-needed');
    expect(scripts.prepack).toBe('node scripts/build.js --if-needed');
  });

  it('has a license file that says MIT', async () => {
    const license = await readFile(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Plan & Memory Viewer contributors\n/);
    expect(license).toContain('Permission is hereby granted, free of charge');
  });
});

describe('a copy without its build', () => {
  it('says what is missing and what to do, instead of a stack trace', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'pmv-unbuilt-'));
    try {
      await cp(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
      const ran = spawnSync(process.execPath, [path.join(copy, 'bin', 'plan-memory-viewer.cjs'), '--version'], { encoding: 'utf8' });
      expect(ran.status).toBe(1);
      expect(ran.stdout).toBe('');
      expect(ran.stderr).toBe(`plan-memory-viewer: this copy has no build (${path.join(copy, 'dist', 'cli.js')} is missing). In a clone, run \`npm install\`; `
        + 'installed from git, let npm run its prepare script (`npm approve-scripts plan-memory-viewer`, or `--allow-scripts=plan-memory-viewer` with -g) and install again.\n');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
