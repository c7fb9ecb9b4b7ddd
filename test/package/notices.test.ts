// dist/THIRD-PARTY-NOTICES.txt names every package whose code is in a bundle, with its license text.
// What is in the bundles is read here from their source maps (which the build keeps out of the package),
// not from the module lists the notices were made from: the two must agree.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const DIST = path.resolve(import.meta.dirname, '../../dist');
/** build-web.js moves the UI's maps here; their sources are relative to where the chunks are. */
const WEB_MAPS = path.join(DIST, '.build', 'web-maps');
const WEB_ASSETS = path.join(DIST, 'web', 'assets');

interface Notice {
  name: string;
  version: string;
  body: string;
}

/** `name@version` of every package a bundle's source map lists a file of. */
async function packagesInMaps(dir: string, base: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.map'))) {
    const map = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as { sources: string[]; sourceRoot?: string };
    for (const source of map.sources) {
      const full = path.resolve(base, map.sourceRoot ?? '', source);
      const at = full.lastIndexOf(`${path.sep}node_modules${path.sep}`);
      if (at < 0) continue;
      const [first, second] = full.slice(at + '/node_modules/'.length).split(path.sep);
      const pkgDir = full.slice(0, at + '/node_modules/'.length) + (first!.startsWith('@') ? `${first}/${second}` : first);
      const manifest = JSON.parse(await readFile(path.join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string };
      found.add(`${manifest.name}@${manifest.version}`);
    }
  }
  return found;
}

let notices: Notice[];
let text: string;

beforeAll(async () => {
  text = await readFile(path.join(DIST, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
  notices = text.split(/^={78}\n/m).slice(1).map((entry) => {
    const [head, ...rest] = entry.split('\n');
    const [name, version] = head!.split(' ');
    return { name: name!, version: version!, body: rest.join('\n') };
  });
});

describe('the third-party notices', () => {
  it('cover every package in the server bundles and the web bundle', async () => {
    const listed = new Set(notices.map((n) => `${n.name}@${n.version}`));
    // The libraries a start does not run are bundled apart, in dist/lib (scripts/deferred-modules.js).
    const server = new Set([...await packagesInMaps(DIST, DIST), ...await packagesInMaps(path.join(DIST, 'lib'), path.join(DIST, 'lib'))]);
    const web = await packagesInMaps(WEB_MAPS, WEB_ASSETS);
    // The maps were found and read: the server has fastify, the UI its renderers.
    for (const pkg of ['fastify', 'yaml', 'typebox']) expect([...server].some((p) => p.startsWith(`${pkg}@`))).toBe(true);
    for (const pkg of ['preact', 'mermaid', 'katex', 'cytoscape', 'dompurify', 'highlight.js', 'markdown-it']) {
      expect([...web].some((p) => p.startsWith(`${pkg}@`))).toBe(true);
    }
    expect([...server].filter((p) => !listed.has(p))).toEqual([]);
    expect([...web].filter((p) => !listed.has(p))).toEqual([]);
  });

  it('give each package its license and the text of it', () => {
    expect(notices.length).toBeGreaterThan(50);
    for (const notice of notices) {
      expect(notice.body, notice.name).toMatch(/^License: \S/m);
      expect(notice.body, notice.name).toMatch(/^--- .+ ---\n\n\S/m);
      // The license's own words are there, not only its name.
      expect(notice.body.length, notice.name).toBeGreaterThan(300);
    }
    const preact = notices.find((n) => n.name === 'preact')!;
    expect(preact.body).toContain('Permission is hereby granted');
    expect(preact.body).toContain('Copyright (c) 2015-present Jason Miller');
  });
});
