// The service and the UI resolve links with one module; these properties pin what that must give.
// 1. The resolver itself, on generated entry sets: a wikilink finds an entry exactly when some entry
//    has that name, path or base name (case-folded), and the first tier that matches decides.
// 2. For the same files, the service's `links` (and MEMORY.md's `danglingLinks`) are exactly what the
//    reader marks as in-app links (and as broken), the reader's marks coming from the UI's own renderer.
// Generated text keeps to the shapes memory files hold (one link per token, no reference definitions,
// no indented code), where markdown-it and the service's line scanner agree on what a link is.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold.js';
import { buildSource } from '../../src/domain/memory/entries.js';
import { LinkResolver, type Linkable } from '../../src/domain/memory/linkResolver.js';
import { parseFile } from '../../src/domain/memory/parsedFile.js';
import type { ScannedFile } from '../../src/domain/memory/scan.js';
import type { MemoryEntry } from '../../src/domain/types.js';

// The UI's modules, loaded at run time: they belong to the web project (bundler module resolution),
// which type-checks them; these are the parts of their signatures used here.
interface RenderModule {
  renderMarkdown(src: string, options: object): { html: string };
}
interface LinksModule {
  LinkResolver: new (entries: MemoryEntry[]) => object;
  splitMemoryFile(content: string): { body: string };
  linkRenderOptions(resolver: object, fromFilename: string): object;
}
const webModule = (rel: string) => path.resolve(import.meta.dirname, '../../web/src', rel);
const ui = async () => ({
  render: (await import(webModule('reader/markdown.ts'))) as RenderModule,
  links: (await import(webModule('memory/links.ts'))) as LinksModule,
});

const FILES = [
  'a.md', 'B.md', 'Deploy Notes.md', 'deploy.md', 'notes/deploy.md', 'notes/sub/x.md', 'user-role.md', 'x y.md',
  'ünï.md', 'notes/a.md',
];
const NAMES = ['user-role', 'Deploy Notes', 'deploy', 'DEPLOY', 'a', 'x', 'Ünï', 'notes', 'B'];

describe('LinkResolver on generated entry sets', () => {
  const entrySet = fc.uniqueArray(fc.constantFrom('MEMORY.md', ...FILES), { minLength: 1, maxLength: 8 }).chain((files) =>
    fc.tuple(...files.map((filename) => fc.constantFrom(...NAMES, stem(filename)).map((name) => ({ filename, name, isIndex: filename === 'MEMORY.md' })))),
  );
  const target = fc.oneof(fc.constantFrom(...NAMES, ...FILES, ...FILES.map(stem), 'ghost', 'DEPLOY NOTES', 'notes/DEPLOY'));

  it('finds the first entry, in listing order, of the first tier with a match', () => {
    fc.assert(
      fc.property(entrySet, target, fc.boolean(), (entries, wanted, reversed) => {
        const r = new LinkResolver(reversed ? [...entries].reverse() : entries);
        const listed = [...entries].sort((a, b) => (a.isIndex !== b.isIndex ? (a.isIndex ? -1 : 1) : a.filename < b.filename ? -1 : 1));
        const tiers: ((e: Linkable) => string[])[] = [
          (e) => [e.name],
          (e) => [e.filename, stem(e.filename)],
          (e) => [base(e.filename), stem(base(e.filename))],
        ];
        let expected: Linkable | null = null;
        for (const keys of tiers) {
          expected = listed.find((e) => keys(e).includes(wanted)) ??
            listed.find((e) => keys(e).some((k) => foldCase(k) === foldCase(wanted))) ?? null;
          if (expected) break;
        }
        const got = r.wiki(wanted);
        expect(got.kind === 'entry' ? got.entry : null).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('service links against the reader marks', () => {
  const dest = (from: string) => fc.oneof(
    fc.constantFrom(...FILES).map((f) => relative(from, f)),
    fc.constantFrom(...FILES).map((f) => `./${relative(from, f)}#part`),
    fc.constantFrom(...FILES).map((f) => encodeURI(relative(from, f))),
    fc.constantFrom('missing.md', 'notes/missing.md', 'A.md', '../../out.md', 'https://example.com/a.md', '/abs.md', 'a.txt',
      'a.md?q=1', '%zz.md', 'MEMORY.md', '<x y.md>', 'x%20y.md'),
  );
  const wiki = fc.oneof(fc.constantFrom(...NAMES, ...FILES.map(stem), ...FILES, 'ghost', 'deploy notes'),
    fc.string({ unit: fc.constantFrom('a', 'B', ' ', '-', 'ü', '.', '/'), minLength: 1, maxLength: 6 }));
  const token = (from: string) => fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('see', 'the role', 'x'), dest(from)).map(([t, d]) => `[${t}](${d})`) },
    { weight: 4, arbitrary: fc.tuple(wiki, fc.constantFrom('', '|alias', '#heading', '|a|b')).map(([w, s]) => `[[${w}${s}]]`) },
    { weight: 1, arbitrary: wiki.map((w) => `\`[[${w}]]\``) },
    { weight: 1, arbitrary: dest(from).map((d) => `![img](${d})`) },
    { weight: 1, arbitrary: wiki.map((w) => `![[${w}]]`) },
    { weight: 3, arbitrary: fc.constantFrom('word', 'and', '—', '*em*', '`code`', '#', '|', '[', ']', '(', ')') },
  );
  const line = (from: string) => fc.oneof(
    { weight: 6, arbitrary: fc.array(token(from), { maxLength: 5 }).map((ts) => ts.join(' ')) },
    { weight: 1, arbitrary: fc.constantFrom('', '# Heading', '- item', '> quote', '| a | b |') },
    { weight: 1, arbitrary: fc.array(token(from), { maxLength: 3 }).map((ts) => `\`\`\`\n${ts.join(' ')}\n\`\`\``) },
  );
  const frontmatter = fc.option(fc.constantFrom(...NAMES).map((n) => `---\nname: ${n}\ndescription: d\n---\n`), { nil: '' });
  const heading = fc.option(fc.constantFrom(...NAMES).map((n) => `# ${n}\n`), { nil: '' });
  const file = (filename: string) =>
    fc.tuple(frontmatter, heading, fc.array(line(filename), { maxLength: 8 })).map(([fm, h, lines]) => ({ filename, text: `${fm}${h}${lines.join('\n')}\n` }));
  const folder = fc.uniqueArray(fc.constantFrom(...FILES), { minLength: 1, maxLength: 7 }).chain((files) =>
    fc.tuple(...['MEMORY.md', ...files].map(file)));

  it('lists in `links` exactly the entries the reader links to, and as dangling what it marks broken in MEMORY.md', async () => {
    const { render, links: uiLinks } = await ui();
    let resolved = 0;
    let dangling = 0;
    await fc.assert(
      fc.asyncProperty(folder, async (files) => {
        const scanned: ScannedFile[] = files.map(({ filename, text }) => ({
          filename, filepath: `/m/${filename}`, isIndex: filename === 'MEMORY.md', parsed: parseFile(text, text.length, 0, 1),
        }));
        const built = buildSource('s', scanned);
        const resolver = new uiLinks.LinkResolver(built.entries);
        for (const { filename, text } of files) {
          const entry = built.entries.find((e) => e.filename === filename)!;
          const { html } = render.renderMarkdown(uiLinks.splitMemoryFile(text).body, uiLinks.linkRenderOptions(resolver, filename));
          const navigated = new Set([...html.matchAll(/data-nav="entry:s\/([^"]*)"/g)].map((m) => unescapeHtml(m[1]!)));
          navigated.delete(filename);
          expect(new Set(entry.links)).toEqual(navigated);
          resolved += navigated.size;
          if (entry.isIndex) {
            dangling += built.index!.danglingLinks.length;
            const broken = new Set([...html.matchAll(/data-broken="1" data-target="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!)));
            expect(new Set(built.index!.danglingLinks)).toEqual(broken);
          }
        }
      }),
      { numRuns: 400 },
    );
    // Both kinds of outcome must have been compared, or the property held vacuously.
    expect(resolved).toBeGreaterThan(1000);
    expect(dangling).toBeGreaterThan(200);
  });
});

function stem(file: string): string {
  return file.replace(/\.md$/, '');
}

function base(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

/** `to` as a link written in `from` (both relative to the memory folder). */
function relative(from: string, to: string): string {
  return path.posix.relative(path.posix.dirname(from), to);
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
