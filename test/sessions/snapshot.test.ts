import { appendFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../src/domain/sessions/sessionIndex.js';
import { conversationLine, SID_A, SID_B, tempHome, type TempHome } from './helpers.js';

const CWD_A = '/home/alice/src/webapp';
const FOLDER = '-home-alice-src-webapp';

let home: TempHome;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

/** A JSON round trip, as a cache file would do it. */
const viaJson = (index: SessionIndex): unknown => JSON.parse(JSON.stringify(index.toJSON()));

async function populated(): Promise<{ index: SessionIndex; file: string }> {
  const file = await home.write(`${FOLDER}/${SID_A}.jsonl`, [
    conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'persisted-slug' }),
    conversationLine({ sessionId: SID_A, cwd: CWD_A }).slice(0, 40), // partial tail: offset stops before it
  ].join(''));
  await home.write(`${FOLDER}/${SID_A}/subagents/agent-a1.jsonl`, conversationLine({ sessionId: SID_A, cwd: CWD_A, slug: 'sub-slug' }));
  await home.folder('-no-logs');
  const index = new SessionIndex({ projectsDir: home.projectsDir });
  await index.refresh();
  return { index, file };
}

describe('SessionIndex.toJSON / fromJSON', () => {
  it('round-trips every answer and the per-file offsets', async () => {
    const { index, file } = await populated();
    const restored = SessionIndex.fromJSON(viaJson(index), { projectsDir: home.projectsDir });
    expect(restored).not.toBeNull();
    expect(restored!.linkForPlan('persisted-slug.md')).toEqual(index.linkForPlan('persisted-slug.md'));
    expect(restored!.linkForPlan('sub-slug-agent-a1.md')).toEqual({ sessionId: SID_A, cwd: CWD_A });
    expect(restored!.projectFolders()).toEqual(index.projectFolders());
    expect(restored!.knownCwds()).toEqual([CWD_A]);
    expect(restored!.cwdForSession(SID_A)).toBe(CWD_A);
    expect(restored!.toJSON()).toEqual(index.toJSON());

    // Nothing changed on disk: the restored index reads nothing.
    expect(await restored!.refresh()).toBe(false);
    expect(restored!.scanStats().bytesRead).toBe(0);

    // An append is read from the stored offset: the partial tail (40 bytes) again, plus what was added.
    const rest = conversationLine({ sessionId: SID_B, cwd: CWD_A, slug: 'after-restore' });
    await appendFile(file, `\n${rest}`);
    expect(await restored!.refresh()).toBe(true);
    expect(restored!.scanStats().bytesRead).toBe(1 + 40 + 1 + Buffer.byteLength(rest));
    expect(restored!.linkForPlan('after-restore.md')?.sessionId).toBe(SID_B);
  });

  it('a restored index still notices a file replaced while it was not running', async () => {
    const { index, file } = await populated();
    const data = viaJson(index);
    const replacement = path.join(home.root, 'new.jsonl');
    await writeFile(replacement, conversationLine({ sessionId: SID_B, cwd: CWD_A, slug: 'replaced' }));
    await rename(replacement, file);
    const restored = SessionIndex.fromJSON(data, { projectsDir: home.projectsDir })!;
    expect(await restored.refresh()).toBe(true);
    expect(restored.linkForPlan('persisted-slug.md')).toBeNull();
    expect(restored.linkForPlan('replaced.md')?.sessionId).toBe(SID_B);
  });

  it('rejects anything that is not a valid snapshot of this projects dir', async () => {
    const { index } = await populated();
    const good = viaJson(index) as Record<string, unknown>;
    const goodFile = (good.files as Record<string, unknown>[])[0]!;
    const withFile = (patch: Record<string, unknown>): unknown => ({ ...good, files: [{ ...goodFile, ...patch }] });
    const garbage: [string, unknown][] = [
      ['null', null],
      ['number', 42],
      ['string', 'index'],
      ['array', []],
      ['empty object', {}],
      ['wrong format', { ...good, format: 'something-else' }],
      ['future version', { ...good, version: 2 }],
      ['other projects dir', { ...good, projectsDir: path.join(home.root, 'other') }],
      ['folders not an array', { ...good, folders: 'x' }],
      ['dot folder', { ...good, folders: ['.hidden'] }],
      ['folder with separator', { ...good, folders: ['a/b'] }],
      ['duplicate folder', { ...good, folders: [FOLDER, FOLDER] }],
      ['file in unknown folder', { ...good, folders: [] }],
      ['files not an array', { ...good, files: {} }],
      ['file not an object', { ...good, files: [7] }],
      ['path escaping', withFile({ path: `../${SID_A}.jsonl` })],
      ['path not a log', withFile({ path: `${FOLDER}/memory/x.jsonl` })],
      ['path with backslash', withFile({ path: `${FOLDER}/${SID_A}/subagents/a\\b/agent-1.jsonl` })],
      ['negative size', withFile({ size: -1 })],
      ['offset past size', withFile({ offset: (goodFile.size as number) + 1 })],
      ['fractional offset', withFile({ offset: 1.5 })],
      ['NaN-ish mtime', withFile({ mtimeMs: 'yesterday' })],
      ['missing ino', withFile({ ino: undefined })],
      ['bad lastCwd', withFile({ lastCwd: 'relative/path' })],
      ['bad session id', withFile({ sessions: [['not-a-uuid', CWD_A]] })],
      ['bad session pair', withFile({ sessions: [[SID_A]] })],
      ['bad slug', withFile({ slugs: [['Not A Slug', SID_A]] })],
      ['slug to bad session', withFile({ slugs: [['ok-slug', 'x']] })],
      ['duplicate slug', withFile({ slugs: [['ok-slug', SID_A], ['ok-slug', SID_B]] })],
      ['duplicate file', { ...good, files: [goodFile, goodFile] }],
    ];
    for (const [label, data] of garbage) {
      expect(SessionIndex.fromJSON(data, { projectsDir: home.projectsDir }), label).toBeNull();
    }
    expect(SessionIndex.fromJSON(good, { projectsDir: home.projectsDir })).not.toBeNull();
  });
});
