import { appendFile, rename, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { conversationLine, indexFacts, legacyAgentLine, metadataLine, SID_A, SID_B, SID_C, summaryLine, tempHome, type TempHome } from './helpers.js';

const CWD_A = '/home/alice/src/webapp';
const CWD_B = '/home/alice/src/api';
const FOLDER_A = '-home-alice-src-webapp';
const FOLDER_B = '-home-alice-src-api';

let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

const logPath = (folder: string, sid: string): string => `${folder}/${sid}.jsonl`;

async function indexed(options: { chunkBytes?: number } = {}): Promise<SessionIndex> {
  const index = new SessionIndex({ projectsDir: home.projectsDir, ...options });
  await index.refresh();
  return index;
}

/** Sets a file's mtime to a fixed instant, so "most recent" never depends on the clock. */
async function setMtime(file: string, seconds: number): Promise<void> {
  await utimes(file, seconds, seconds);
}

describe('SessionIndex: linking plans to sessions', () => {
  it('links a slug that first appears mid-file, with the session cwd', async () => {
    await home.write(logPath(FOLDER_A, SID_A), [
      metadataLine(SID_A),
      conversationLine({ sessionId: SID_A, cwd: CWD_A }),
      conversationLine({ sessionId: SID_A, cwd: CWD_A }),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'jolly-juggling-penguin' }),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'jolly-juggling-penguin' }),
      summaryLine(),
    ].join(''));
    const index = await indexed();
    expect(index.linkForPlan('jolly-juggling-penguin.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.cwdForSession(SID_A)).toBe(CWD_A);
    expect(index.linkForPlan('other-slug.md')).toBeNull();
    expect(index.linkForPlan('jolly-juggling-penguin')).toBeNull();
  });

  it('takes the last line carrying a slug within a file, and the cwd a session started in', async () => {
    await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'first-slug' }),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'second-slug' }),
      conversationLine({ sessionId: SID_B, cwd: `${CWD_A}/sub`, slug: 'first-slug' }),
      conversationLine({ sessionId: SID_A, cwd: `${CWD_A}/pkg` }),
    ].join(''));
    const index = await indexed();
    expect(index.linkForPlan('second-slug.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('first-slug.md')).toEqual({ sessionId: SID_B, cwd: `${CWD_A}/sub` });
  });

  it('across files, the most recently modified file wins (ties: the larger path)', async () => {
    const a = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'shared' }));
    const b = await home.write(logPath(FOLDER_B, SID_B), conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'shared' }));
    await setMtime(a, 2_000_000);
    await setMtime(b, 1_000_000);
    const index = await indexed();
    expect(index.linkForPlan('shared.md')?.sessionId).toBe(SID_A);
    await setMtime(b, 3_000_000);
    expect(await index.updateFile(b)).toBe(true);
    expect(index.linkForPlan('shared.md')?.sessionId).toBe(SID_B);
    await setMtime(a, 3_000_000);
    await index.refresh();
    // Same mtime: FOLDER_A's path sorts after FOLDER_B's ("-home-alice-src-w" > "-home-alice-src-a").
    expect(index.linkForPlan('shared.md')?.sessionId).toBe(SID_A);
  });

  it('links <slug>-agent-<id>.md through a subagent log to the parent session', async () => {
    await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A }));
    await home.write(`${FOLDER_A}/${SID_A}/subagents/agent-a7b1cd4effbcbdebe.jsonl`,
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'sub-plan-happy-otter', type: 'assistant' }));
    await home.write(`${FOLDER_B}/${SID_B}/subagents/workflows/run-1/agent-b1.jsonl`,
      conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'workflow-slug' }));
    const index = await indexed();
    expect(index.linkForPlan('sub-plan-happy-otter-agent-a7b1cd4effbcbdebe.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('sub-plan-happy-otter.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('workflow-slug-agent-x1.md')).toEqual({ sessionId: SID_B, cwd: CWD_B });
    expect(index.cwdForSession(SID_B)).toBe(CWD_B);
    expect(index.linkForPlan('unknown-agent-a7b1.md')).toBeNull();
  });

  it('links plans through subagent logs of Claude Code before 2.1.2, beside the sessions, to the parent session', async () => {
    // The parent's own log never names the plan; the old subagent log beside it does, with the parent's sessionId.
    await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A }));
    const agentLog = await home.write(`${FOLDER_A}/agent-6c6a1b5e.jsonl`, legacyAgentLine(SID_A, CWD_A, 'old-subagent-plan', '6c6a1b5e'));
    // A project folder that holds nothing but such a log.
    await home.write(`${FOLDER_B}/agent-0f1e2d3c.jsonl`, legacyAgentLine(SID_B, CWD_B, 'lonely-agent-plan', '0f1e2d3c'));
    const index = await indexed();
    expect(index.linkForPlan('old-subagent-plan.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('old-subagent-plan-agent-6c6a1b5e.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('lonely-agent-plan.md')).toEqual({ sessionId: SID_B, cwd: CWD_B });
    expect(index.projectFolders().find((f) => f.key === FOLDER_B)?.cwd).toBe(CWD_B);
    expect(index.scanStats().trackedFiles).toBe(3);

    // It grows and appears like any log, through the watcher's path too.
    await appendFile(agentLog, legacyAgentLine(SID_A, CWD_A, 'grown-agent-plan', '6c6a1b5e'));
    expect(await index.updateFile(agentLog)).toBe(true);
    expect(index.linkForPlan('grown-agent-plan.md')?.sessionId).toBe(SID_A);
    const appeared = await home.write(`${FOLDER_A}/agent-99aa88bb.jsonl`, legacyAgentLine(SID_C, CWD_A, 'appeared-agent-plan', '99aa88bb'));
    expect(index.isSessionLog(appeared)).toBe(true);
    expect(await index.updateFile(appeared)).toBe(true);
    expect(index.linkForPlan('appeared-agent-plan.md')).toEqual({ sessionId: SID_C, cwd: CWD_A });
  });

  it('prefers a slug that itself contains "-agent-" over splitting it', async () => {
    await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'fix-agent-bug' }),
      conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'fix' }),
    ].join(''));
    const index = await indexed();
    expect(index.linkForPlan('fix-agent-bug.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('fix-agent-bug-agent-a1.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('fix-agent-zzz.md')?.sessionId).toBe(SID_B);
  });

  it('skips a torn line in the middle of a file', async () => {
    const torn = conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'torn-slug' });
    await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'before-torn' }),
      torn.slice(0, torn.length - 2), // no "}\n": the next line is glued on
      metadataLine(SID_A),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'after-torn' }),
    ].join(''));
    const index = await indexed();
    expect(index.linkForPlan('before-torn.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('after-torn.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('torn-slug.md')).toBeNull();
    expect(index.cwdForSession(SID_B)).toBeNull();
  });

  it('reports project folders with the cwd they are named after, and the distinct cwds', async () => {
    const a = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A }));
    const c = await home.write(logPath(FOLDER_A, SID_C), conversationLine({ sessionId: SID_C, cwd: `${CWD_A}/docs` }));
    await home.write(logPath(FOLDER_B, SID_B), metadataLine(SID_B));
    await home.folder('-empty-folder');
    await setMtime(a, 1_000_000);
    await setMtime(c, 4_000_000);
    const index = await indexed();
    expect(index.projectFolders()).toEqual([
      { key: '-empty-folder', dir: path.join(home.projectsDir, '-empty-folder'), cwd: null },
      { key: FOLDER_B, dir: path.join(home.projectsDir, FOLDER_B), cwd: null },
      // The newer log's cwd is not the one the folder is named after.
      { key: FOLDER_A, dir: path.join(home.projectsDir, FOLDER_A), cwd: CWD_A },
    ]);
    expect(index.knownCwds()).toEqual([CWD_A, `${CWD_A}/docs`]);
  });
});

describe('SessionIndex: incremental reading', () => {
  it('reads only the appended bytes on the next refresh', async () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: i > 200 ? 'early-slug' : undefined, content: `message ${i}` }));
    const file = await home.write(logPath(FOLDER_A, SID_A), lines.join(''));
    const index = await indexed();
    const firstPass = index.scanStats().bytesRead;
    expect(firstPass).toBe((await stat(file)).size);
    const appended = conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'late-slug' });
    await appendFile(file, appended);
    expect(await index.refresh()).toBe(true);
    const secondPass = index.scanStats().bytesRead - firstPass;
    // The appended line, plus the one byte that checks the old offset still follows a newline.
    expect(secondPass).toBeGreaterThanOrEqual(Buffer.byteLength(appended));
    expect(secondPass).toBeLessThanOrEqual(Buffer.byteLength(appended) + 1);
    expect(index.linkForPlan('late-slug.md')?.sessionId).toBe(SID_A);
    expect(index.linkForPlan('early-slug.md')?.sessionId).toBe(SID_A);
    expect(await index.refresh()).toBe(false);
    expect(index.scanStats().bytesRead - firstPass).toBe(secondPass);
  });

  it('re-reads a partial trailing line once a later append completes it', async () => {
    const full = conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'completed-slug' });
    const cut = full.indexOf('"slug"') + 3;
    const file = await home.write(logPath(FOLDER_A, SID_A),
      conversationLine({ sessionId: SID_A, cwd: CWD_A }) + full.slice(0, cut));
    const index = await indexed();
    expect(index.linkForPlan('completed-slug.md')).toBeNull();
    await appendFile(file, full.slice(cut));
    expect(await index.updateFile(file)).toBe(true);
    expect(index.linkForPlan('completed-slug.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
  });

  it('reads 5 MB single lines whole, with and without keys, and holds no more than a line and two chunks', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const file = await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'huge-line-slug', content: big }),
      `{"type":"progress","data":"${big}"}\n`,
      `{"toolUseResult":{"cwd":"/${big}"},` + conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'after-bogus' }).slice(1),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, content: `"slug":"in-content" ${big}` }),
    ].join(''));
    const index = await indexed();
    expect(index.linkForPlan('huge-line-slug.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('after-bogus.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(index.linkForPlan('in-content.md')).toBeNull();
    expect(index.scanStats().bytesRead).toBe((await stat(file)).size);
    expect(index.scanStats().maxHeldBytes).toBeLessThanOrEqual(2 * (Buffer.byteLength(`{"type":"progress","data":"${big}"}\n`) + 256 * 1024));
  });

  it('gives the same answers with tiny read chunks', async () => {
    await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: 'C:\\Users\\c\\p', slug: 'tiny-chunks' }),
      conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'tiny-chunks-2', content: 'é\u2028"slug":"x"' }),
    ].join(''));
    const small = await indexed({ chunkBytes: 7 });
    const large = await indexed();
    expect(indexFacts(small)).toEqual(indexFacts(large));
    expect(small.linkForPlan('tiny-chunks.md')).toEqual({ sessionId: SID_A, cwd: 'C:\\Users\\c\\p' });
  });

  it('rescans a file replaced by another inode', async () => {
    const file = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'old-slug' }));
    const index = await indexed();
    const before = index.scanStats().bytesRead;
    const replacement = path.join(home.root, 'replacement.jsonl');
    const content = conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'new-slug' }).repeat(3);
    await writeFile(replacement, content);
    await rename(replacement, file);
    expect(await index.updateFile(file)).toBe(true);
    expect(index.linkForPlan('old-slug.md')).toBeNull();
    expect(index.linkForPlan('new-slug.md')?.sessionId).toBe(SID_A);
    expect(index.scanStats().bytesRead - before).toBe(Buffer.byteLength(content));
  });

  it('rescans a truncated file, and one rewritten in place', async () => {
    const file = await home.write(logPath(FOLDER_A, SID_A), [
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'kept-slug' }),
      conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'cut-slug' }),
    ].join(''));
    const index = await indexed();
    await truncate(file, Buffer.byteLength(conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'kept-slug' })));
    expect(await index.refresh()).toBe(true);
    expect(index.linkForPlan('cut-slug.md')).toBeNull();
    expect(index.linkForPlan('kept-slug.md')?.sessionId).toBe(SID_A);
    // Same inode, longer, but the old offset no longer follows a newline.
    await writeFile(file, `${'{"pad":"'.padEnd(50, 'p')}"}\n` + conversationLine({ sessionId: SID_B, cwd: CWD_B, slug: 'rewritten' }).repeat(2));
    await index.refresh();
    expect(index.linkForPlan('kept-slug.md')).toBeNull();
    expect(index.linkForPlan('rewritten.md')?.sessionId).toBe(SID_B);
  });

  it('rescans from 0 when the mtime goes back', async () => {
    const file = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'same' }));
    await setMtime(file, 5_000_000);
    const index = await indexed();
    const before = index.scanStats().bytesRead;
    await setMtime(file, 4_000_000);
    await index.refresh();
    expect(index.scanStats().bytesRead - before).toBe((await stat(file)).size);
    expect(index.linkForPlan('same.md')?.sessionId).toBe(SID_A);
  });

  it('serialises concurrent refreshes and updates of the same file: nothing is read twice', async () => {
    const file = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A }));
    const index = await indexed();
    const before = index.scanStats().bytesRead;
    const appended = conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'concurrent' }).repeat(50);
    await appendFile(file, appended);
    const results = await Promise.all([
      index.refresh(), index.updateFile(file), index.updateFile(file), index.refresh(), index.updateFile(file),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(index.scanStats().bytesRead - before).toBe(Buffer.byteLength(appended) + 1);
    expect(index.linkForPlan('concurrent.md')?.sessionId).toBe(SID_A);
  });
});

describe('SessionIndex: files appearing and vanishing', () => {
  it('updateFile picks up new logs and forgets deleted ones and folders', async () => {
    const index = await indexed();
    expect(index.projectFolders()).toEqual([]);
    const file = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'appears' }));
    expect(await index.updateFile(file)).toBe(true);
    expect(index.linkForPlan('appears.md')?.sessionId).toBe(SID_A);
    expect(index.projectFolders().map((f) => f.cwd)).toEqual([CWD_A]);
    expect(await index.updateFile(file)).toBe(false);
    await rm(file);
    expect(await index.updateFile(file)).toBe(true);
    expect(index.linkForPlan('appears.md')).toBeNull();
    expect(index.projectFolders().map((f) => f.key)).toEqual([FOLDER_A]);
    const other = await home.write(logPath(FOLDER_A, SID_B), conversationLine({ sessionId: SID_B, cwd: CWD_A, slug: 'b-slug' }));
    await index.updateFile(other);
    await rm(path.join(home.projectsDir, FOLDER_A), { recursive: true });
    expect(await index.updateFile(other)).toBe(true);
    expect(index.projectFolders()).toEqual([]);
    expect(index.scanStats().trackedFiles).toBe(0);
  });

  it('refresh forgets vanished files and reports no change when nothing changed', async () => {
    const file = await home.write(logPath(FOLDER_A, SID_A), conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'gone-soon' }));
    const index = new SessionIndex({ projectsDir: home.projectsDir });
    expect(await index.refresh()).toBe(true);
    expect(await index.refresh()).toBe(false);
    await rm(file);
    expect(await index.refresh()).toBe(true);
    expect(index.linkForPlan('gone-soon.md')).toBeNull();
    expect(index.knownCwds()).toEqual([]);
  });

  it('copes with a missing projects dir and paths outside it', async () => {
    const index = new SessionIndex({ projectsDir: path.join(home.root, 'nope') });
    expect(await index.refresh()).toBe(false);
    expect(await index.updateFile(path.join(home.root, 'elsewhere', `${SID_A}.jsonl`))).toBe(false);
    expect(index.projectFolders()).toEqual([]);
  });
});
