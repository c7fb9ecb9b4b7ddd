// `npm ci` on the oldest Node the package supports (package.json's engines, which the README and CI promise)
// installs nothing that declares it does not run there: such a package made npm warn EBADENGINE on every
// install (a dev dependency of the hot reload did, on Node 20).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

describe('the dependency tree', () => {
  it('holds no package whose engines exclude the oldest Node the package supports', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(pkg.engines.node);
    expect(oldest?.version).toBe('20.19.0');
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const refused = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !Array.isArray(entry.engines) && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(oldest!, (entry.engines as { node: string }).node))
      .map(([name, entry]) => `${name}@${entry.version ?? '?'} (node ${(entry.engines as { node: string }).node})`);
    expect(refused).toEqual([]);
    expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
  });
});
