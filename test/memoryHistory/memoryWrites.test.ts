// The memoryWrites extractor on real-shaped lines through the one reader: Write, Edit and MultiEdit of
// memory files (also under another machine's home), each with the last prompt the person typed before it;
// tool results, meta lines and other markdown files are not taken; a log read on after it grew keeps the
// prompt; the facts survive the cache's save and restore.
import { appendFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryPathParts, memoryWrites } from '../../src/domain/transcripts/extractors/memoryWrites.js';
import { LOG_SESSION, logDir, read, type LogDir } from '../transcripts/readLog.js';
import { edit, multiEdit, prompt, toolResult, write, type LineContext } from '../history/transcript.js';

const ctx = (minute: number): LineContext => ({ cwd: '/work', sessionId: LOG_SESSION, at: new Date(Date.UTC(2026, 10, 19, 9, minute)).toISOString() });
const MEM = '/home/alice/.claude/projects/-work/memory';
let dir: LogDir | null = null;

afterEach(async () => {
  await dir?.cleanup();
  dir = null;
});

describe('memoryPathParts', () => {
  it('names the project folder and the file inside its memory folder, in any home', () => {
    expect(memoryPathParts(`${MEM}/MEMORY.md`)).toEqual({ key: '-work', file: 'MEMORY.md' });
    expect(memoryPathParts('C:\\Users\\c\\.claude\\projects\\C--p\\memory\\team\\a.md')).toEqual({ key: 'C--p', file: 'team/a.md' });
    expect(memoryPathParts(`${MEM}/notes.txt`)).toBeNull();
    expect(memoryPathParts('/home/alice/.claude/plans/x.md')).toBeNull();
    expect(memoryPathParts(`${MEM}/.hidden/x.md`)).toBeNull();
  });
});

describe('memoryWrites', () => {
  it('keeps each memory write with the prompt it answered', async () => {
    dir = await logDir();
    await dir.write([
      prompt(ctx(0), 'Remember that I prefer tabs'),
      write(ctx(1), `${MEM}/MEMORY.md`, '# Memory\n- [Style](style.md)\n'),
      toolResult(ctx(2), 'toolu_x', 'File created successfully'),
      write(ctx(3), `${MEM}/style.md`, 'Tabs, not spaces.\n'),
      write(ctx(4), '/work/README.md', '# Not memory\n'),
      prompt({ ...ctx(5) }, 'Also: short commit messages'),
      edit(ctx(6), `${MEM}/style.md`, 'Tabs, not spaces.', 'Tabs, not spaces.\nShort commit messages.'),
    ].join('\n') + '\n');
    const log = read(dir.file);
    const writes = log.facts.memory.writes;
    expect(writes.map((w) => [w.tool, w.key, w.file, w.prompt, w.sessionId])).toEqual([
      ['Write', '-work', 'MEMORY.md', 'Remember that I prefer tabs', LOG_SESSION],
      ['Write', '-work', 'style.md', 'Remember that I prefer tabs', LOG_SESSION],
      ['Edit', '-work', 'style.md', 'Also: short commit messages', LOG_SESSION],
    ]);
    expect(writes[2]!.at).toBe(ctx(6).at);

    // Read on after the log grew: the prompt carries over from the first read.
    await appendFile(dir.file, multiEdit(ctx(7), `${MEM}/style.md`, [{ old_string: 'Short', new_string: 'Very short' }]) + '\n');
    const grown = read(dir.file, log);
    expect(grown.facts.memory.writes.at(-1)).toMatchObject({ tool: 'MultiEdit', file: 'style.md', prompt: 'Also: short commit messages' });

    const restored = memoryWrites.restore(JSON.parse(JSON.stringify(memoryWrites.save(grown.facts.memory))));
    expect(restored).toEqual(grown.facts.memory);
    expect(memoryWrites.restore({ w: [['Write', '/etc/passwd', null, null, null, 0, 1, null]], p: null })).toBeNull();
  });
});
