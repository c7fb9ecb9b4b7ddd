// A plan's markdown: optional heading, context, then steps, code, file tables, checklists and prose up to
// a target size.

import { FAKE_ROOT } from './home-layout.js';
import type { Rng } from './rng.js';
import { LANGS, THING, VERB, WORDS, paragraph, sentence, titleCase } from './vocabulary.js';

function codeBlock(rng: Rng): string {
  const lang = rng.pick(LANGS);
  const lines: string[] = [];
  const n = rng.int(3, 14);
  for (let i = 0; i < n; i++) {
    const a = rng.pick(WORDS).replace(/[^a-z]/g, 'x');
    const b = rng.pick(WORDS).replace(/[^a-z]/g, 'y');
    switch (rng.int(0, 4)) {
      case 0: lines.push(`const ${a}${i} = await ${b}(${rng.int(0, 999)});`); break;
      case 1: lines.push(`  if (!${a}) throw new Error('${b} failed');`); break;
      case 2: lines.push(`# ${sentence(rng, 3, 8)}`); break;
      case 3: lines.push(`export function ${a}To${b.charAt(0).toUpperCase()}${b.slice(1)}(x: string): number {`); break;
      default: lines.push(`  return ${a}.${b}?.length ?? 0; // ${rng.pick(WORDS)}`);
    }
  }
  return '```' + lang + '\n' + lines.join('\n') + '\n```';
}

export function planMarkdown(rng: Rng, title: string, targetBytes: number, cwd: string | null): string {
  const parts: string[] = [];
  const headingStyle = rng.next();
  if (headingStyle < 0.85) parts.push(`# Plan: ${title}`);
  else if (headingStyle < 0.95) parts.push(`# ${title}`);
  // else: no heading at all (the title falls back to the file name)
  parts.push('## Context\n\n' + paragraph(rng));
  const root = cwd ?? `${FAKE_ROOT}/project`;
  let step = 1;
  let size = parts.join('\n\n').length;
  while (size < targetBytes) {
    const r = rng.next();
    let block: string;
    if (r < 0.25) {
      const items: string[] = [];
      for (let i = 0; i < rng.int(2, 6); i++) {
        items.push(`${step++}. **${titleCase(rng.pick(VERB))} ${rng.pick(WORDS)}** — ${sentence(rng)} ` +
          `Files: \`${root}/src/${rng.pick(THING)}/${rng.pick(WORDS).replace(/[^a-z]/g, '')}.ts\``);
      }
      block = `## Step ${step}: ${titleCase(rng.pick(THING))}\n\n` + items.join('\n');
    } else if (r < 0.45) {
      block = `### ${titleCase(rng.pick(VERB))} the ${rng.pick(THING)}\n\n${paragraph(rng)}\n\n${codeBlock(rng)}`;
    } else if (r < 0.55) {
      const rows: string[] = ['| File | Change |', '|---|---|'];
      for (let i = 0; i < rng.int(2, 6); i++) rows.push(`| \`src/${rng.pick(THING)}.ts\` | ${sentence(rng, 3, 8)} |`);
      block = '## Files to change\n\n' + rows.join('\n');
    } else if (r < 0.65) {
      const items: string[] = [];
      for (let i = 0; i < rng.int(2, 5); i++) items.push(`- [${rng.chance(0.3) ? 'x' : ' '}] ${sentence(rng, 4, 10)}`);
      block = '## Verification\n\n' + items.join('\n');
    } else {
      block = paragraph(rng, rng.int(2, 7));
    }
    parts.push(block);
    size += block.length + 2;
  }
  return parts.join('\n\n') + '\n';
}
