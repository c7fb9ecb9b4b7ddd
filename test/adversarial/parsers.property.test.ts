// Property tests for every text parser the viewer runs over files it does not control: frontmatter,
// headings and titles, counts, links and wikilinks, and search folding. Each property says what must hold
// for ANY input (never throws, bounded output, independence from the surrounding lines), not just for
// the examples in test/markdown. Run counts are listed in docs/robustness.md.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold.js';
import { parse, stringify } from 'yaml';
import { MAX_YAML_DEPTH, parseFrontmatter } from '../../src/domain/markdown/frontmatter.js';
import { nestsDeeperThan } from '../../src/domain/markdown/yamlNesting.js';
import { extractLinks } from '../../src/domain/markdown/links.js';
import { countLines, firstHeading, linesFromNewlines, planTitle, planTitleFromBytes } from '../../src/domain/markdown/text.js';
import { countWordsAndNewlines } from '../../src/domain/markdown/wordCount.js';

/** Fragments every markdown parser here treats specially, mixed with arbitrary Unicode. */
const MD_TOKENS = [
  '\n', '\r\n', '\r', '---', '---\n', '...', '# ', '#', '## ', '###### ', '####### ', '    ', '   ', '\t', ' #',
  '```', '````', '~~~', '`', '``', '\\', '\\`', '[', ']', '[[', ']]', '(', ')', '](', '![', '<', '>', '"', "'", '|',
  '#h', '?q', '%', '%2F', '%00', '%zz', '/', '../', '~/', 'http://x', 'mailto:a', 'x.md', 'a b.md', '\u2028', '\u2029',
  '\u0085', '\u00a0', '\ufeff', '\u0000', '\ud800', '\udc00', 'Σ', 'ς', 'İ', 'ß', '𐐀', 'key: value', 'a: b: c',
  'metadata:', '  type: user', '__proto__: x', 'constructor: y', '&a [1]', '*a', '<<: *a', '!!js/function', '%YAML 1.2',
  '- item', '{', '}', 'name: "q"', "description: 'd'",
];
const token = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...MD_TOKENS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
);
const markdown = fc.array(token, { maxLength: 60 }).map((parts) => parts.join(''));
/** Text that cannot open a fenced code block anywhere (no backticks, no tildes). */
const fenceless = markdown.map((s) => s.replace(/[`~]/g, ''));

const RUNS = 1000;

describe('frontmatter (any text)', () => {
  it('never throws, keeps the body a suffix of the text, and never touches Object.prototype', () => {
    fc.assert(
      fc.property(fc.oneof(markdown, markdown.map((s) => `---\n${s}`), markdown.map((s) => `---\n${s}\n---\n${s}`)), (text) => {
        const fm = parseFrontmatter(text);
        expect(text.endsWith(fm.body)).toBe(true);
        expect(typeof fm.data).toBe('object');
        expect(Array.isArray(fm.data)).toBe(false);
        expect(fm.error === null || typeof fm.error === 'string').toBe(true);
        expect(({} as Record<string, unknown>).x).toBeUndefined();
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves text without a leading --- line untouched', () => {
    fc.assert(
      fc.property(markdown.filter((s) => !/^\ufeff?---[ \t]*\r?(\n|$)/.test(s)), (text) => {
        expect(parseFrontmatter(text)).toEqual({ data: {}, body: text, error: null });
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back any string value written as a double-quoted scalar, top level and nested', () => {
    const value = fc.string({ unit: 'grapheme', maxLength: 40 });
    fc.assert(
      fc.property(value, value, value, markdown, (name, description, nested, body) => {
        const text = `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n` +
          `metadata:\n  description: ${JSON.stringify(nested)}\n---\n${body}`;
        const fm = parseFrontmatter(text);
        expect(fm.error).toBeNull();
        expect(fm.data.name).toBe(name);
        // Nested metadata wins over the top level.
        expect(fm.data.description).toBe(nested);
        expect(fm.body).toBe(body);
      }),
      { numRuns: RUNS },
    );
  });

  it('recovers `key: value` lines through the line parser when the YAML is invalid', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9 .,_()-]{0,29}$/).map((s) => s.trim());
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        // `a: b` inside an unquoted value is not valid YAML (a nested compact mapping).
        const fm = parseFrontmatter(`---\nname: ${a}: ${b}\ntype: feedback\n---\nbody\n`);
        expect(fm.error).not.toBeNull();
        expect(fm.data.name).toBe(`${a}: ${b}`);
        expect(fm.data.type).toBe('feedback');
        expect(fm.body).toBe('body\n');
      }),
      { numRuns: RUNS },
    );
  });

  it('survives alias bombs and deep nesting of every size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3000 }), (levels, depth) => {
        const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
        for (let i = 1; i <= levels; i++) {
          lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
        }
        const bomb = parseFrontmatter(`---\n${lines.join('\n')}\nname: bomb\n---\nbody`);
        expect(bomb.body).toBe('body');
        const deep = parseFrontmatter(`---\nk: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\n`);
        expect(deep.body).toBe('');
      }),
      { numRuns: 60 },
    );
  });

  it('hands no block nested past the bound to the YAML parser, in any shape, at any depth', () => {
    // Each shape nests one level per unit, up to 100,000 levels (past what any stack holds) or as many
    // as fit the 256 KiB a frontmatter block may span.
    const shapes: ((d: number) => string)[] = [
      (d) => `k: ${'['.repeat(d)}${']'.repeat(d)}`,
      (d) => `k: ${'{a: '.repeat(d)}x${'}'.repeat(d)}`,
      (d) => `${'- '.repeat(d)}x`,
      (d) => `${'? '.repeat(d)}x`,
      (d) => `k: [${'[\n'.repeat(d)}${']'.repeat(d)}]`,
      (d) => Array.from({ length: Math.min(d, 700) }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
      (d) => Array.from({ length: Math.min(d, 2000) }, (_, i) => `${'  '.repeat(i % 3)}- [${'['.repeat(i % 40)}`).join('\n'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...shapes.keys()), fc.integer({ min: MAX_YAML_DEPTH + 1, max: 100_000 }), (shape, depth) => {
        let block = shapes[shape]!(depth);
        for (let d = depth; block.length > 250_000; d = Math.floor(d / 2)) block = shapes[shape]!(d);
        const fm = parseFrontmatter(`---\nname: deep\n${block}\n---\nbody`);
        expect(fm.body).toBe('body');
        expect(fm.error).toMatch(/read line by line$/);
        expect(fm.data.name).toBe('deep');
      }),
      { numRuns: 200 },
    );
  });

  it('never counts a block shallower than the value YAML builds from it', () => {
    // Nested values written in every layout the YAML library produces (block, flow, mixed, compact
    // sequences, any indentation), plus token soup. No aliases: an alias reuses its anchor's value.
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('x', 1, null, 'a: b', '[q]'),
        fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
        fc.dictionary(fc.constantFrom('k', 'l', 'm n', '? x'), tie('tree'), { minKeys: 1, maxKeys: 3 }),
      ),
    }));
    const layout = fc.record({
      indent: fc.integer({ min: 1, max: 4 }), indentSeq: fc.boolean(), flowLevel: fc.integer({ min: -1, max: 4 }),
    });
    const written = fc.tuple(tree, layout, fc.array(fc.constantFrom('', '#', '# [[', '  # x'), { maxLength: 3 }), fc.nat())
      .map(([value, { indent, indentSeq, flowLevel }, extra, seed]) => {
        const lines = stringify(value, { indent, indentSeq, ...(flowLevel >= 0 ? { flowLevel } : {}) }).split('\n');
        // Blank and comment lines between any two lines change nothing YAML builds.
        extra.forEach((line, k) => lines.splice(1 + ((seed + k * 7) % lines.length), 0, line));
        return lines.join('\n');
      });
    const piece = fc.constantFrom('[', ']', '{', '}', '- ', '? ', ': ', 'a', 'b: ', '\n', '  ', ' ', ',', '"[', '\'{\'', '# [', '|', '>', '&x ', '!!seq ');
    const soup = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
    let nested = 0;
    fc.assert(
      fc.property(fc.oneof(written, soup), (text) => {
        let value: unknown;
        try {
          value = parse(text, { schema: 'core', logLevel: 'error' });
        } catch {
          return;
        }
        const depth = valueDepth(value);
        if (depth > 2) nested++;
        if (depth > 0) expect(nestsDeeperThan(text, depth - 1)).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(nested).toBeGreaterThan(500);
  });
});

function valueDepth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = value instanceof Map ? [...value.values()] : Object.values(value as object);
  return 1 + children.reduce<number>((max, child) => Math.max(max, valueDepth(child)), 0);
}

describe('countLines and countWords (any text)', () => {
  it('agree with naive split-based definitions', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        expect(countLines(text)).toBe(lines);
        expect(countWordsAndNewlines(Buffer.from(text, 'utf8')).words).toBe(naiveWords(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('count words on any bytes as the decoded text splits (spaces next to invalid UTF-8 included)', () => {
    // Every Unicode space's bytes, their prefixes and stray lead and continuation bytes, mixed with noise.
    const spaces = ['\u0085', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', ' ', '\t']
      .map((s) => [...Buffer.from(s, 'utf8')]);
    const piece = fc.oneof(
      fc.constantFrom(...spaces),
      fc.constantFrom(...spaces).map((b) => b.slice(0, -1)),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
      fc.constantFrom([0xe2], [0xe2, 0x80], [0xc2], [0xef, 0xbb], [0x80], [0xf0, 0x9f], [0x61]),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const bytes = Buffer.from(pieces.flat());
        expect(countWordsAndNewlines(bytes).words).toBe(naiveWords(bytes.toString('utf8')));
      }),
      { numRuns: RUNS * 4 },
    );
  });
});

describe('plan facts measured on bytes (any text, any length)', () => {
  it('give the title and line count of the decoded text, whatever falls at the 16 KiB head cut', () => {
    // Long filler pushes headings, fences and multi-byte characters across the point where only the
    // head is decoded.
    const filler = fc.oneof(
      fc.constant('x'.repeat(5000)), fc.constant('ü'.repeat(3000)), fc.constant('日本'.repeat(1500)),
      fc.constant('```\n'), fc.constant('~~~~\n'), fc.constant('\r\n'), fc.constant('\n'),
      fc.constant('# Heading\n'), fc.constant('   ## Plan: Deep\n'), fc.constant('\ufeff'),
    );
    const longText = fc.array(fc.oneof(filler, markdown), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(longText, (text) => {
        // The reference is the text as a file holds it: a lone surrogate in a JS string is written as U+FFFD.
        const bytes = Buffer.from(text, 'utf8');
        const decoded = bytes.toString('utf8');
        expect(planTitleFromBytes(bytes, 'name.md')).toBe(planTitle(decoded, 'name.md'));
        expect(linesFromNewlines(bytes, countWordsAndNewlines(bytes).newlines)).toBe(countLines(decoded));
      }),
      { numRuns: RUNS },
    );
  });
});

function naiveWords(text: string): number {
  return text.split(/[\s\u0085]+/).filter((w) => w !== '').length;
}

describe('firstHeading and planTitle (any text)', () => {
  it('return one trimmed, non-empty line of at most 4096 characters', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const heading = firstHeading(text);
        if (heading !== null) {
          expect(heading).toBe(heading.trim());
          expect(heading.length).toBeGreaterThan(0);
          expect(heading.length).toBeLessThanOrEqual(4096);
          expect(heading).not.toMatch(/[\n]/);
        }
        const title = planTitle(text, 'some-plan.md');
        expect(title.length).toBeGreaterThan(0);
        expect(title).not.toContain('\n');
      }),
      { numRuns: RUNS },
    );
  });

  it('depend on lines only: the heading of a + b is the heading of a, else of b', () => {
    fc.assert(
      fc.property(fenceless, fenceless.filter((s) => !s.startsWith('\ufeff')), (a, b) => {
        expect(firstHeading(`${a}\n${b}`)).toBe(firstHeading(a) ?? firstHeading(b));
      }),
      { numRuns: RUNS },
    );
  });

  it('never take a heading from inside a closed fence', () => {
    fc.assert(
      fc.property(fenceless, fc.constantFrom('```', '~~~', '````'), (inner, fence) => {
        const text = `${fence}sh\n# inside\n${inner}\n${fence}\n# Plan: Outside\n`;
        expect(firstHeading(text)).toBe('Plan: Outside');
        expect(planTitle(text, 'x.md')).toBe('Outside');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('extractLinks (any text)', () => {
  it('returns only relative, non-empty targets and clean wikilink names', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const links = extractLinks(text);
        for (const target of links.markdown) {
          expect(target.length).toBeGreaterThan(0);
          expect(target.startsWith('/')).toBe(false);
          expect(target).not.toContain('\0');
        }
        for (const name of links.wikilinks) {
          expect(name).toBe(name.trim());
          expect(name.length).toBeGreaterThan(0);
          expect(name).not.toMatch(/[|#[\]\n]/);
        }
        expect(new Set(links.markdown).size).toBe(links.markdown.length);
        expect(new Set(links.wikilinks).size).toBe(links.wikilinks.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('depend on lines only: links of a + b are those of a, then those of b', () => {
    const dedupe = (xs: string[]) => [...new Set(xs)];
    fc.assert(
      fc.property(fenceless, fenceless, (a, b) => {
        const both = extractLinks(`${a}\n${b}`);
        const la = extractLinks(a);
        const lb = extractLinks(b);
        expect(both.markdown).toEqual(dedupe([...la.markdown, ...lb.markdown]));
        expect(both.wikilinks).toEqual(dedupe([...la.wikilinks, ...lb.wikilinks]));
      }),
      { numRuns: RUNS },
    );
  });

  it('find a link on its own line whatever surrounds it, and none inside a fence', () => {
    const stem = fc.stringMatching(/^[a-z0-9][a-z0-9 _-]{0,20}$/);
    fc.assert(
      fc.property(fenceless, fenceless, stem, stem, (before, after, file, wiki) => {
        const links = extractLinks(`${before}\n[x](${encodeURIComponent(file)}.md) and [[${wiki}|alias]]\n${after}`);
        expect(links.markdown).toContain(`${file}.md`);
        if (wiki.trim() !== '') expect(links.wikilinks).toContain(wiki.trim());
        const fenced = extractLinks(`\`\`\`\n${before}\n[x](${file}.md) [[${wiki}]]\n${after}\n\`\`\`\n`);
        expect(fenced).toEqual({ markdown: [], wikilinks: [] });
      }),
      { numRuns: RUNS },
    );
  });

  it('get through 200 KB lines made of any repeated bracket pattern', () => {
    const unit = fc.array(fc.constantFrom('[', ']', '(', ')', '[[', ']]', '](', '`', '\\', '<', '>', '"', 'x', ' ', '!', '%', '%ff', '%41', '#'), {
      minLength: 1, maxLength: 12,
    }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(unit, (pattern) => {
        // A leading letter keeps the line from being a fence or a heading itself.
        const line = `x${pattern.repeat(Math.ceil(200_000 / pattern.length))}`;
        const links = extractLinks(`${line}\n[tail](tail.md)\n`);
        expect(links.markdown).toContain('tail.md');
        expect(firstHeading(`${line}\n# Tail\n`)).toBe('Tail');
      }),
      { numRuns: 40 },
    );
  });
});

describe('foldCase (search folding)', () => {
  it('never loses a match: the fold of a text contains the fold of every code-point slice of it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.nat(), fc.nat(), (text, i, j) => {
        const points = Array.from(text);
        const from = points.length === 0 ? 0 : i % points.length;
        const to = from + (points.length === 0 ? 0 : j % (points.length - from + 1));
        const slice = points.slice(from, to).join('');
        expect(foldCase(text).includes(foldCase(slice))).toBe(true);
        expect(foldCase(foldCase(text))).toBe(foldCase(text));
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
