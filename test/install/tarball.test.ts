// The package as `npm pack` makes it, which is also what the registry would serve once the name is
// published: installed into a project, installed globally, and run with npx. It has no dependencies, so
// none of this needs the network.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInstalledBin, cleanProject, npmWarnings, ok, ROOT, run, VERSION } from './support.js';

let work: { dir: string; cleanup: () => Promise<void> };
let tarball: string;

beforeAll(async () => {
  work = await cleanProject('pmv-install-tarball-');
  // prepack builds first if dist/ is not a build of the current sources.
  const packed = ok(await run('npm', ['pack', '--json', '--pack-destination', work.dir], { cwd: ROOT }), 'npm pack');
  const { filename } = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0]!;
  tarball = path.join(work.dir, filename);
  expect(filename).toBe(`plan-memory-viewer-${VERSION}.tgz`);
}, 600_000);

afterAll(async () => {
  await work?.cleanup();
});

describe('from a tarball', () => {
  it('installs into a project with no other package and no warning, and runs', async () => {
    const installed = ok(await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: work.dir }), 'npm install <tarball>');
    expect(npmWarnings(installed)).toEqual([]);
    expect((await readdir(path.join(work.dir, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['plan-memory-viewer']);
    await checkInstalledBin(path.join(work.dir, 'node_modules', '.bin', 'plan-memory-viewer'), work.dir);
  }, 600_000);

  it('installs globally (npm install -g) and runs', async () => {
    const prefix = path.join(work.dir, 'global');
    ok(await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', tarball], { cwd: work.dir }), 'npm install -g <tarball>');
    await checkInstalledBin(path.join(prefix, 'bin', 'plan-memory-viewer'), work.dir);
  }, 600_000);

  it('runs with npx, as `npx plan-memory-viewer` will once published', async () => {
    const cache = path.join(work.dir, 'npx-cache');
    const ran = ok(await run('npx', ['--yes', '--cache', cache, '--package', tarball, 'plan-memory-viewer', '--version'], { cwd: work.dir }), 'npx');
    expect(ran.stdout).toBe(`${VERSION}\n`);
  }, 600_000);
});
