// Writing auto memory: a memory folder per source project with typed topic files (front matter, bullets,
// wiki links, sometimes the memory word) and a MEMORY.md index with an orphan topic and a dangling link.

import fs from 'node:fs';
import path from 'node:path';
import type { HomeParams } from './facts.js';
import { BASE_TIME, DAY, encodeProjectDir } from './home-layout.js';
import type { SessionSpec } from './home-shape.js';
import type { Rng } from './rng.js';
import { sentence, titleCase } from './vocabulary.js';

const TOPIC_KINDS: { stem: string; type: 'user' | 'feedback' | 'project' | 'reference' }[] = [
  { stem: 'user-role', type: 'user' }, { stem: 'user-preferences', type: 'user' },
  { stem: 'feedback-testing', type: 'feedback' }, { stem: 'feedback-style', type: 'feedback' },
  { stem: 'feedback-commits', type: 'feedback' }, { stem: 'project-architecture', type: 'project' },
  { stem: 'project-deploy', type: 'project' }, { stem: 'project-conventions', type: 'project' },
  { stem: 'project-roadmap', type: 'project' }, { stem: 'reference-api', type: 'reference' },
  { stem: 'reference-runbook', type: 'reference' }, { stem: 'reference-glossary', type: 'reference' },
];

export interface MemoryFacts {
  memoryEntries: number;
  memoryBytes: number;
  /** Entry ids whose raw content contains the memory word, unsorted. */
  memIds: string[];
}

export function writeMemory(
  rng: Rng, home: string, projectCwd: string[], sessions: SessionSpec[], memWord: string,
  p: Pick<HomeParams, 'memorySources' | 'topics'>,
): MemoryFacts {
  let memoryEntries = 0;
  let memoryBytes = 0;
  const memIds: string[] = [];
  const memTargetsShare = 0.03;
  for (let m = 0; m < p.memorySources; m++) {
    const key = encodeProjectDir(projectCwd[m] as string);
    const memDir = path.join(home, 'projects', key, 'memory');
    fs.mkdirSync(memDir, { recursive: true });
    const topics: { file: string; name: string; title: string; hook: string }[] = [];
    for (let t = 0; t < p.topics; t++) {
      const kind = TOPIC_KINDS[t % TOPIC_KINDS.length] as (typeof TOPIC_KINDS)[number];
      const suffix = t >= TOPIC_KINDS.length ? `-${Math.floor(t / TOPIC_KINDS.length) + 1}` : '';
      const nested = t === 3 && m % 4 === 1;
      const file = `${nested ? 'notes/' : ''}${kind.stem}${suffix}.md`;
      topics.push({ file, name: `${kind.stem}${suffix}`, title: titleCase(kind.stem + suffix), hook: sentence(rng, 4, 10) });
    }
    const sources = sessions.filter((s) => s.project === m);
    const originSession = sources.length > 0 ? (sources[0] as SessionSpec).sessionId : rng.uuid();
    topics.forEach((topic, t) => {
      const kind = TOPIC_KINDS[t % TOPIC_KINDS.length] as (typeof TOPIC_KINDS)[number];
      const links: string[] = [];
      for (let k = rng.int(0, 3); k > 0 && topics.length > 1; k--) {
        const other = rng.pick(topics);
        if (other !== topic) links.push(rng.chance(0.2) ? `[[${other.name}|${other.title}]]` : `[[${other.name}]]`);
      }
      const bodyLines: string[] = [`# ${topic.title}`, ''];
      for (let k = rng.int(3, 25); k > 0; k--) bodyLines.push(`- ${sentence(rng, 4, 14)}`);
      if (links.length > 0) bodyLines.push('', `Related: ${links.join(', ')}`);
      if (rng.chance(memTargetsShare) || (m === 0 && t === 0)) bodyLines.push('', `Codename ${memWord} applies here.`);
      const modified = new Date(BASE_TIME - Math.floor(rng.next() * 60 * DAY)).toISOString();
      const content = [
        '---',
        `name: ${topic.name}`,
        `description: ${JSON.stringify(topic.hook)}`,
        'metadata:',
        '  node_type: memory',
        `  type: ${kind.type}`,
        `  originSessionId: ${originSession}`,
        `  modified: ${modified}`,
        '---',
        '',
        ...bodyLines,
        '',
      ].join('\n');
      const filePath = path.join(memDir, topic.file);
      fs.mkdirSync(path.dirname(filePath), { recursive: true });
      fs.writeFileSync(filePath, content);
      memoryEntries++;
      memoryBytes += Buffer.byteLength(content);
      if (content.toLowerCase().includes(memWord)) memIds.push(`${key}/${topic.file}`);
    });
    const index: string[] = ['# Memory index', ''];
    topics.forEach((topic, t) => {
      if (t === topics.length - 1 && m % 3 === 2) return; // an orphan topic
      index.push(`- [${topic.title}](${topic.file}) — ${topic.hook}`);
    });
    if (m % 5 === 4) index.push('- [Old notes](old-notes.md) — removed long ago'); // a dangling link
    const indexText = index.join('\n') + '\n';
    fs.writeFileSync(path.join(memDir, 'MEMORY.md'), indexText);
    memoryEntries++;
    memoryBytes += Buffer.byteLength(indexText);
    if (indexText.toLowerCase().includes(memWord)) memIds.push(`${key}/MEMORY.md`);
  }
  return { memoryEntries, memoryBytes, memIds };
}
