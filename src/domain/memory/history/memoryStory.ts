// A memory file's versions, oldest first, on one timeline: the transcripts' writes of it (a Write gives the
// whole text, an Edit or MultiEdit applies to the text before it, whoever wrote that) and the contents the
// viewer saw on disk that no write explains (a hand edit, Auto Dream, another tool: "outside Claude Code",
// at the file's mtime when seen), then the file on disk now when it is none of them. An edit whose old
// text is not in the text before it leaves a gap: the history resumes at the next Write or outside version.
import { countLines } from '../../markdown/text.js';
import { applyWrite, toolInput } from '../../history/planStory.js';
import { compareTimes } from '../../history/historyIndex.js';
import { contentHash, type ObservedVersion } from '../../history/observedVersions.js';
import type { MemoryWrite } from '../../transcripts/extractors/memoryWrites.js';
import type { MemoryVersion } from '../../../contract/memoryHistory.js';

export interface LoggedMemoryWrite extends MemoryWrite {
  log: string;
}

export interface MemoryStorySources {
  writes: readonly LoggedMemoryWrite[];
  /** What the viewer saw of the file, with a way to read each content back (null: pruned). */
  observed: readonly ObservedVersion[];
  content: (sha: string) => string | null;
  disk: { text: string; mtimeMs: number } | null;
}

export interface MemoryStory {
  versions: MemoryVersion[];
  contents: Map<string, string>;
}

type Step = { kind: 'write'; at: string | null; write: LoggedMemoryWrite } | { kind: 'observed'; at: string | null; seen: ObservedVersion };

export function memoryStory(sources: MemoryStorySources): MemoryStory {
  const versions: MemoryVersion[] = [];
  const contents = new Map<string, string>();
  const steps: Step[] = [
    ...sources.writes.map((write): Step => ({ kind: 'write', at: write.at, write })),
    ...sources.observed.map((seen): Step => ({ kind: 'observed', at: seen.at, seen })),
  ];
  // Stable: writes of one time stay in their logs' order, and a content seen at the time of a write (its
  // mtime is the write's own) comes after it.
  steps.sort((a, b) => compareTimes(a.at, b.at));
  let current: string | null = null;
  let gap = false;
  const written = new Set<string>();
  const add = (base: string, text: string, rest: Omit<MemoryVersion, 'id' | 'size' | 'lineCount' | 'gapBefore'>): void => {
    // A content seen again later (changed back) is another version of the same text.
    const id = contents.has(base) ? `${base}.${versions.length}` : base;
    contents.set(id, text);
    versions.push({ id, size: Buffer.byteLength(text), lineCount: countLines(text), ...rest, gapBefore: gap });
    current = text;
    gap = false;
  };
  for (const step of steps) {
    if (step.kind === 'write') {
      const { write } = step;
      const input = toolInput(write);
      const next = input === null ? null : applyWrite(write.tool, input, current);
      if (next === null) {
        gap = true;
        current = null;
        continue;
      }
      written.add(contentHash(next));
      add(writeVersionId(write), next, { at: write.at, source: write.tool === 'Write' ? 'write' : 'edit', sessionId: write.sessionId, agentId: write.agentId, prompt: write.prompt });
      continue;
    }
    // A content a write made is that write's; one seen again after another is a change back.
    if (step.seen.sha === (current === null ? null : contentHash(current)) || (current === null && written.has(step.seen.sha))) continue;
    const text = sources.content(step.seen.sha);
    if (text === null) continue;
    add(`o${step.seen.sha.slice(0, 16)}`, text, outside(step.seen.at));
  }
  const disk = sources.disk;
  if (disk !== null && disk.text !== current) {
    add(`d${contentHash(disk.text).slice(0, 16)}`, disk.text, outside(new Date(disk.mtimeMs).toISOString()));
  }
  return { versions, contents };
}

/** The id of the version a write makes (when its history can rebuild it): stable for its log and line. */
export function writeVersionId(write: Pick<LoggedMemoryWrite, 'log' | 'line' | 'tool'>): string {
  return `t${contentHash(`${write.log}\0${write.line.start}\0${write.tool}`).slice(0, 16)}`;
}

function outside(at: string | null): Omit<MemoryVersion, 'id' | 'size' | 'lineCount' | 'gapBefore'> {
  return { at, source: 'outside', sessionId: null, agentId: null, prompt: null };
}
