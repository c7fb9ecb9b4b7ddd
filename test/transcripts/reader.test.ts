// The one transcript reader on hand-made logs: a line's facts wherever its keys sit, whole lines across
// chunks and appends, values checked, nested and quoted keys ignored, torn and oversized lines counted.
import { appendFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_VALUE_CHARS } from '../../src/domain/transcripts/extractors/links.js';
import { createReadSlot, logOwner, readLog, readLogInSteps, type ReadResult, type TrackedLog } from '../../src/domain/transcripts/transcriptReader.js';
import { conversationLine, metadataLine, SID_A, SID_B, summaryLine } from '../sessions/helpers.js';
import { LOG_SESSION, logDir, read, type LogDir } from './readLog.js';

const CWD = '/home/alice/src/webapp';
let dir: LogDir;
beforeEach(async () => {
  dir = await logDir();
});
afterEach(async () => {
  await dir.cleanup();
});

/** What the log links: slug -> session, session -> cwd. */
function links(log: TrackedLog): { slugs: Record<string, string>; cwds: Record<string, string> } {
  const { slugs, sessions } = log.facts.links;
  return { slugs: Object.fromEntries(slugs), cwds: Object.fromEntries([...sessions].map(([id, s]) => [id, s.cwd])) };
}

async function readText(text: string, chunkBytes?: number): Promise<TrackedLog> {
  await dir.write(text);
  return read(dir.file, null, { chunkBytes });
}

describe('links from every line', () => {
  it('reads cwd, sessionId and slug wherever they sit in a line, in any key order', async () => {
    const first = JSON.stringify({ cwd: CWD, sessionId: SID_A, slug: 'keys-first', type: 'user', message: { role: 'user', content: 'x'.repeat(100_000) } });
    const log = await readText(`${first}\n${conversationLine({ sessionId: SID_B, cwd: '/work/b', slug: 'keys-last', content: 'y'.repeat(100_000) })}`, 4096);
    expect(links(log)).toEqual({ slugs: { 'keys-first': SID_A, 'keys-last': SID_B }, cwds: { [SID_A]: CWD, [SID_B]: '/work/b' } });
  });

  it('gives no slug for lines before plan mode and takes the last line carrying one', async () => {
    const log = await readText(conversationLine({ sessionId: SID_A, cwd: CWD }) + metadataLine(SID_A) +
      conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'first-slug' }) + conversationLine({ sessionId: SID_B, cwd: CWD, slug: 'first-slug' }));
    expect(links(log).slugs).toEqual({ 'first-slug': SID_B });
  });

  it('decodes escapes in cwd and keeps raw U+2028 inside a line', async () => {
    const windows = 'C:\\Users\\c\\p "quoted" é';
    const log = await readText(conversationLine({ sessionId: SID_A, cwd: windows, slug: 'ok-slug', content: 'line\u2028separator' }) +
      `{"cwd":"/h\\u00e9/\\u2028x","sessionId":"${SID_B}"}\n`);
    expect(links(log).cwds).toEqual({ [SID_A]: windows, [SID_B]: '/hé/\u2028x' });
  });

  it('ignores keys inside string content and in nested objects, whatever their order', async () => {
    const content = `{"cwd":"/evil","sessionId":"${SID_B}","slug":"evil-slug"}`;
    const nested = { toolUseResult: { cwd: '/elsewhere', sessionId: SID_B, slug: 'nested-slug' } };
    const log = await readText(conversationLine({ sessionId: SID_A, cwd: CWD, content }) +
      conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'real-slug', extra: nested }) +
      JSON.stringify({ ...nested, type: 'progress' }) + '\n');
    expect(links(log)).toEqual({ slugs: { 'real-slug': SID_A }, cwds: { [SID_A]: CWD } });
  });

  it('checks values: UUID sessionIds, the slug grammar and length, absolute cwds at most MAX_VALUE_CHARS long', async () => {
    const line = (cwd: string, sid: string, slug: string): string => `${JSON.stringify({ cwd, sessionId: sid, slug })}\n`;
    const slug100 = `a${'-b'.repeat(49)}c`;
    const atLimit = `/${'a'.repeat(MAX_VALUE_CHARS - 1)}`;
    const log = await readText(line(CWD, 'not-a-uuid', 'ok') + line('relative/dir', SID_A, 'Bad-Slug') + line(CWD, SID_A, `${slug100}d`) +
      line(`${atLimit}b`, SID_B, 'double--dash') + line(atLimit, SID_B, slug100));
    expect(links(log)).toEqual({ slugs: { [slug100]: SID_B }, cwds: { [SID_A]: CWD, [SID_B]: atLimit } });
  });

  it('names the log\'s owner and project folder from its path, subagent and workflow logs included', () => {
    expect(logOwner(`/h/projects/-work/${SID_A}.jsonl`)).toEqual({ sessionId: SID_A, agentId: null, main: true, folder: '-work' });
    expect(logOwner(`/h/projects/-work/${SID_A}/subagents/agent-a1.jsonl`)).toEqual({ sessionId: SID_A, agentId: 'a1', main: false, folder: '-work' });
    expect(logOwner(`/h/projects/-work/${SID_A}/subagents/workflows/r1/agent-b2.jsonl`)).toEqual({ sessionId: SID_A, agentId: 'b2', main: false, folder: '-work' });
    expect(logOwner('/h/projects/-work/agent-c3.jsonl')).toEqual({ sessionId: null, agentId: 'c3', main: false, folder: '-work' });
  });
});

describe('whole lines across chunks and appends', () => {
  it('reads the same in 7-byte chunks as whole, and a line completed by an append once whole', async () => {
    const text = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'tiny-chunks', content: 'é\u2028"slug":"x"' }) +
      conversationLine({ sessionId: SID_B, cwd: 'C:\\Users\\c\\p', slug: 'tiny-chunks-two' });
    expect(links(await readText(text, 7))).toEqual(links(await readText(text)));
    const full = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'completed-slug' });
    await dir.write(full.slice(0, 40));
    const partial = read(dir.file);
    expect([partial.offset, partial.lines, links(partial).slugs]).toEqual([0, 0, {}]);
    await appendFile(dir.file, full.slice(40));
    const completed = read(dir.file, partial);
    expect([completed.offset, completed.lines, links(completed).slugs]).toEqual([Buffer.byteLength(full), 1, { 'completed-slug': SID_A }]);
  });

  it('pauses after every chunk but the last, and reads in steps what it reads at once', async () => {
    await dir.write(conversationLine({ sessionId: SID_A, cwd: CWD, content: 'y'.repeat(70_000), slug: 'slug-one' }));
    const steps = readLogInSteps(dir.file, null, createReadSlot(4096));
    let pauses = 0;
    let result: ReadResult;
    for (;;) {
      const step = steps.next();
      if (step.done === true) {
        result = step.value;
        break;
      }
      pauses++;
    }
    expect(result).toEqual(readLog(dir.file, null, createReadSlot(4096)));
    if (result.kind !== 'read') throw new Error('expected a read');
    expect(pauses).toBe(Math.ceil(result.log.size / 4096) - 1);
    expect(links(result.log).slugs).toEqual({ 'slug-one': SID_A });
  });
});

describe('lines that are no whole object', () => {
  const full = conversationLine({ sessionId: SID_B, cwd: '/work/b', slug: 'good-slug' });
  const torn = conversationLine({ sessionId: SID_A, cwd: '/work/a', slug: 'torn-slug' });

  it('takes a torn line glued to a full one as the full one, wherever the cut', async () => {
    for (const cut of [20, torn.indexOf('"cwd"') + 12, torn.indexOf('"slug"') + 10, torn.length - 3]) {
      const log = await readText(torn.slice(0, cut) + full);
      expect(links(log), `cut at ${cut}`).toEqual({ slugs: { 'good-slug': SID_B }, cwds: { [SID_B]: '/work/b' } });
      expect(log.facts.counts).toEqual({ unreadable: 0, oversized: 0 });
    }
  });

  it('counts what it cannot read and goes on with the next line', async () => {
    const log = await readText(`${summaryLine()}not json at all\n{"cwd":"/never/closed${'x'.repeat(100)}\n\n[1,2]\n\u0000\u00ff"\\"\n${full}`);
    expect(links(log).slugs).toEqual({ 'good-slug': SID_B });
    expect(log.facts.counts).toEqual({ unreadable: 4, oversized: 0 });
    expect(log.lines).toBe(7);
  });

  it('skips and counts a line over the limit, holding no more than the limit and a chunk, and reads the next one', async () => {
    const MB = 1024 * 1024;
    const limit = 5 * MB;
    const long = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'too-long', content: 'x'.repeat(6 * MB) });
    // Longer than the limit by less than a chunk: it fits the buffer, and is no more read than the other.
    const justOver = conversationLine({ sessionId: SID_A, cwd: CWD, slug: 'just-over', content: 'y'.repeat(limit) });
    await dir.write(justOver + full);
    expect(read(dir.file, null, { chunkBytes: 65_536, maxLineBytes: limit }).facts.counts).toEqual({ unreadable: 0, oversized: 1 });
    await dir.write(long + full);
    const slot = createReadSlot(65_536, undefined, limit);
    const result = readLogInSteps(dir.file, null, slot);
    let step = result.next();
    while (step.done !== true) step = result.next();
    if (step.value.kind !== 'read') throw new Error('expected a read');
    expect(links(step.value.log).slugs).toEqual({ 'good-slug': SID_B });
    expect(step.value.log.facts.counts).toEqual({ unreadable: 0, oversized: 1 });
    expect(step.value.maxHeldBytes).toBeLessThanOrEqual(limit + 65_536);
    // Counted once, also when the log first ended inside it.
    await dir.write(long.slice(0, 5.5 * MB));
    const partial = read(dir.file, null, { chunkBytes: 65_536, maxLineBytes: limit });
    await appendFile(dir.file, long.slice(5.5 * MB) + full);
    expect(read(dir.file, partial, { chunkBytes: 65_536, maxLineBytes: limit }).facts.counts).toEqual({ unreadable: 0, oversized: 1 });
  });
});

describe('the log\'s owner', () => {
  it('gives lines without a sessionId to the session the log belongs to', async () => {
    const log = await readText(`${summaryLine()}${conversationLine({ sessionId: LOG_SESSION, cwd: CWD })}`);
    expect([...log.facts.cards.sessions.keys()]).toEqual([LOG_SESSION]);
    expect(log.facts.cards.sessions.get(LOG_SESSION)?.summary).toBe('A summary');
  });
});
