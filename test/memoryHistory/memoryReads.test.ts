// The memoryReads extractor on real-shaped attachment lines through the one reader, with the tape and with
// JSON.parse: nested_memory and relevant_memories attachments (keys in any order, a memory named by
// `filePath` or `file`, one naming nothing, a path too long to be one), other attachments and lines not
// taken; the facts survive the cache's save and restore, and a tampered save is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryReads } from '../../src/domain/transcripts/extractors/memoryReads.js';
import { ParsedLine } from '../../src/domain/transcripts/parsedLine.js';
import { LOG_SESSION, logDir, read, type LogDir } from '../transcripts/readLog.js';
import { planModeAttachment, prompt, type LineContext } from '../history/transcript.js';

const ctx = (minute: number): LineContext => ({ cwd: '/work', sessionId: LOG_SESSION, at: new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString() });
const MEM = '/home/alice/.claude/projects/-work/memory';
let dir: LogDir | null = null;

afterEach(async () => {
  await dir?.cleanup();
  dir = null;
});

const line = (minute: number, attachment: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ parentUuid: null, type: 'attachment', attachment, timestamp: ctx(minute).at, sessionId: LOG_SESSION, cwd: '/work', ...extra });

const LINES = [
  prompt(ctx(0), 'Start'),
  line(1, { type: 'nested_memory', path: '/work/lib/CLAUDE.md', content: '# Lib\n' }),
  // Keys in another order, `type` last; memories named three ways, one naming nothing, one path too long.
  JSON.stringify({
    attachment: {
      memories: [
        { content: 'a', path: `${MEM}/a.md` }, { filePath: `${MEM}/b.md`, content: 'b' }, { file: `${MEM}/c.md` }, { content: 'none' },
        { path: `/${'x'.repeat(2000)}.md`, content: 'long' }, 'not an object',
      ],
      type: 'relevant_memories',
    },
    sessionId: LOG_SESSION, timestamp: ctx(2).at, agentId: 'a1b2c3', type: 'attachment',
  }),
  line(3, { type: 'relevant_memories', memories: 'not a list' }),
  line(4, { type: 'nested_memory' }),
  planModeAttachment(ctx(5), 'plan_mode', '/home/alice/.claude/plans/x.md'),
  line(6, { type: 'edited_text_file', filename: `${MEM}/a.md` }),
  JSON.stringify({ type: 'user', attachment: { type: 'nested_memory', path: '/not/an/attachment/line' }, sessionId: LOG_SESSION }),
];

describe('memoryReads', () => {
  it.each([['the tape', undefined], ['JSON.parse', { parse: (bytes: Uint8Array) => ParsedLine.of(Buffer.from(bytes)) }]])('keeps where each memory attachment is and what it names (%s)', async (_name, parser) => {
    dir = await logDir();
    await dir.write(LINES.join('\n') + '\n');
    const log = read(dir.file, null, parser === undefined ? {} : { parser });
    const reads = log.facts.memoryReads.reads;
    expect(reads.map((r) => [r.kind, r.at, r.agentId, r.number, r.paths])).toEqual([
      ['nested_memory', ctx(1).at, null, 2, ['/work/lib/CLAUDE.md']],
      ['relevant_memories', ctx(2).at, 'a1b2c3', 3, [`${MEM}/a.md`, `${MEM}/b.md`, `${MEM}/c.md`]],
      ['relevant_memories', ctx(3).at, null, 4, []],
      ['nested_memory', ctx(4).at, null, 5, []],
    ]);
    expect(reads.every((r) => r.sessionId === LOG_SESSION)).toBe(true);
    const text = LINES.join('\n');
    expect(text.slice(reads[1]!.line.start, reads[1]!.line.end)).toBe(LINES[2]);

    const restored = memoryReads.restore(JSON.parse(JSON.stringify(memoryReads.save(log.facts.memoryReads))));
    expect(restored).toEqual(log.facts.memoryReads);
    expect(memoryReads.restore([['nested_memory', null, null, null, 5, 1, 2, []]])).toBeNull();
    expect(memoryReads.restore([['claude_md', null, null, null, 0, 1, 2, []]])).toBeNull();
    expect(memoryReads.restore([['relevant_memories', null, 'not-a-session', null, 0, 1, 2, []]])).toBeNull();
    expect(memoryReads.restore([['relevant_memories', null, null, null, 0, 1, 2, [7]]])).toBeNull();
  });
});
