// Writes dist/THIRD-PARTY-NOTICES.txt: the license of every package the server bundles (dist/*.cjs,
// dist/*.js) and the web bundle (dist/web) contain. What is inside comes from the bundlers themselves
// (esbuild's metafile, Vite's chunks; recorded in dist/.build/ by build-server.js and build-web.js), and
// each package's license text from its own files in node_modules. Run after both builds.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './built.js';

const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'THIRD-PARTY-NOTICES.txt');
/** Files a package keeps its license and notices in: LICENSE, LICENCE.md, LICENSE-MIT, COPYING, NOTICE ... */
const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;
/** Code the bundlers add themselves, named by a virtual module id. */
const VIRTUAL = [
  [/^\0?rolldown\//, 'node_modules/rolldown'],
  [/^\0?vite\//, 'node_modules/vite'],
  [/^\0esbuild\//, 'node_modules/esbuild'],
];

/**
 * The package directory (repository-relative) a bundled module comes from: the path up to the package name
 * after its last node_modules/ (so a nested copy is its own package), or null for the project's own code.
 */
function packageDirOf(moduleId) {
  const id = moduleId.replace(/\?.*$/, '');
  for (const [pattern, dir] of VIRTUAL) if (pattern.test(id)) return dir;
  const at = id.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const parts = id.slice(at + 'node_modules/'.length).split('/');
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return name ? `${id.slice(0, at)}node_modules/${name}` : null;
}

function readModules(file) {
  return JSON.parse(readFileSync(path.join(DIST, '.build', file), 'utf8'));
}

function licenseOf(manifest) {
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license && typeof manifest.license.type === 'string') return manifest.license.type;
  if (Array.isArray(manifest.licenses)) return manifest.licenses.map((l) => l.type ?? l).join(' OR ');
  return 'not declared in its package.json (see the license file below)';
}

const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

const readText = (file) => readFileSync(file, 'utf8').replace(/\r\n/g, '\n').trim();

/** The "License" section of a package's README (up to the next heading), or null. */
function readmeLicense(full) {
  const readme = readdirSync(full).find((name) => /^readme(\.md|\.markdown|\.txt)?$/i.test(name));
  if (readme === undefined) return null;
  const match = /^(#+)\s*licen[cs]e\b.*\n([\s\S]*?)(?=^#{1,6}\s|(?![\s\S]))/im.exec(readText(path.join(full, readme)));
  return match ? { name: `${readme}, section "License"`, text: match[2].trim() } : null;
}

function authorOf(manifest) {
  const author = manifest.author;
  if (typeof author === 'string') return author;
  if (author && typeof author.name === 'string') return author.email ? `${author.name} <${author.email}>` : author.name;
  return `the ${manifest.name} authors`;
}

/**
 * The package's license and notice files, verbatim. A package that ships none gets its README's license
 * section; one that declares MIT without the license's text anywhere also gets the MIT text, with its
 * package.json's author as the copyright holder. Anything else stops the build: a notice must not be guessed.
 */
function licenseTexts(full, manifest) {
  const texts = readdirSync(full).filter((name) => LICENSE_FILE.test(name)).sort()
    .map((name) => ({ name, text: readText(path.join(full, name)) }));
  if (texts.length > 0) return texts;
  const section = readmeLicense(full);
  if (section) texts.push(section);
  if (licenseOf(manifest) === 'MIT' && !texts.some((t) => t.text.includes('Permission is hereby granted'))) {
    texts.push({ name: 'the MIT License, as package.json declares (the package ships no license file)', text: `Copyright (c) ${authorOf(manifest)}\n\n${MIT}` });
  }
  return texts;
}

function describe(dir, parts) {
  const full = path.join(ROOT, dir);
  const manifest = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'));
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  return { name: manifest.name, version: manifest.version, license: licenseOf(manifest), repository, parts, texts: licenseTexts(full, manifest) };
}

const parts = new Map();
// esbuild writes its own helpers (__commonJS, __toESM ...) into every server bundle; its metafile lists no input for them.
const ESBUILD_RUNTIME = '\0esbuild/runtime';
for (const [file, part] of [['server-modules.json', 'server'], ['web-modules.json', 'web UI']]) {
  for (const id of [...readModules(file), ...(part === 'server' ? [ESBUILD_RUNTIME] : [])]) {
    const dir = packageDirOf(id);
    if (dir === null) continue;
    if (!existsSync(path.join(ROOT, dir, 'package.json'))) throw new Error(`${id}: no package.json in ${dir}`);
    const set = parts.get(dir) ?? new Set();
    set.add(part);
    parts.set(dir, set);
  }
}

const packages = [...parts].map(([dir, set]) => describe(dir, [...set])).sort((a, b) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0);
const missing = packages.filter((p) => p.texts.length === 0).map((p) => `${p.name}@${p.version}`);
if (missing.length > 0) throw new Error(`no license text found for ${missing.join(', ')}`);

const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const rule = '='.repeat(78);
const lines = [
  `Third-party software in ${own.name} ${own.version}`,
  '',
  `The server bundles (dist/*.cjs, dist/*.js) and the web UI (dist/web/) contain code of the ${packages.length}`,
  'packages below. Each is listed with the license its package.json declares and the license and notice',
  'files it ships, verbatim.',
  '',
];
for (const p of packages) {
  lines.push(rule, `${p.name} ${p.version}`, `License: ${p.license}`, `Used in: ${p.parts.join(', ')}`);
  if (p.repository) lines.push(`Source: ${p.repository}`);
  for (const { name, text } of p.texts) lines.push('', `--- ${name} ---`, '', text);
  lines.push('');
}
writeFileSync(OUT, `${lines.join('\n')}\n`);
console.log(`${path.relative(ROOT, OUT)}: ${packages.length} packages`);
