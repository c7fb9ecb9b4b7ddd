// Ranked search in every language: words of scripts written without spaces are found inside longer runs
// (Japanese, Chinese, Thai), accents fold, and a snippet marks the word as typed rather than a word one typo
// away from it when the document holds both. A real server over loopback, real plan files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindBody } from '../../src/contract/find.js';
import { TempHome } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';
import { day } from './home.js';

let home: TempHome;
let server: Running;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('ja-plan.md', '# 連携の準備\n\nローカル統合計画を作成する。\n', day('2026-03-01'));
  await home.plan('zh-plan.md', '# 迁移\n\n制定实施计划的步骤。\n', day('2026-03-02'));
  await home.plan('th-plan.md', '# แผนงาน\n\nทดสอบภาษาไทยการวางแผนระบบ\n', day('2026-03-03'));
  await home.plan('fr-plan.md', '# Déploiement\n\nLa Société prévoit une révision complète.\n', day('2026-03-04'));
  await home.plan('theme-plan.md', '# Dark theme\n\nThere is more to do there.\nThe theme toggle sits in the top bar.\n', day('2026-03-05'));
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: false });
  await server.viewer.finder.built;
});

afterAll(async () => {
  await server.close();
  await home.cleanup();
});

const find = (q: string): Promise<FindBody> => server.json<FindBody>(`/api/find?q=${encodeURIComponent(q)}`);
const ids = async (q: string): Promise<string[]> => (await find(q)).results.map((r) => r.id);

/** The marked words of a result's snippets, as text. */
function marked(body: FindBody, id: string): string[] {
  const hit = body.results.find((r) => r.id === id);
  return (hit?.snippets ?? []).flatMap((s) => s.ranges.map(([a, b]) => s.text.slice(a, b)));
}

describe('find in scripts without spaces', () => {
  it('finds a Japanese word inside a longer run, and marks it', async () => {
    const body = await find('統合計画');
    expect(body.results.map((r) => r.id)).toEqual(['ja-plan.md']);
    expect(marked(body, 'ja-plan.md')).toEqual(['統合', '計画']);
  });

  it('finds Chinese words in any order, the last one as a prefix', async () => {
    expect(await ids('实施计划')).toEqual(['zh-plan.md']);
    expect(await ids('计划 实施')).toEqual(['zh-plan.md']);
    expect(await ids('步')).toEqual(['zh-plan.md']);
  });

  it('finds a Thai word inside a run', async () => {
    expect(await ids('การวางแผน')).toEqual(['th-plan.md']);
  });

  it('folds accents both ways', async () => {
    expect(await ids('societe revision')).toEqual(['fr-plan.md']);
    expect(await ids('DÉPLOIEMENT')).toEqual(['fr-plan.md']);
  });
});

describe('snippets mark what was typed', () => {
  it('marks "theme", not "there", in a plan holding both', async () => {
    const body = await find('theme');
    expect(body.results[0]?.id).toBe('theme-plan.md');
    const words = marked(body, 'theme-plan.md').map((w) => w.toLowerCase());
    expect(words).toContain('theme');
    expect(words).not.toContain('there');
  });

  it('still marks a typo when the plan holds nothing spelled as typed', async () => {
    const body = await find('societi');
    expect(body.results.map((r) => r.id)).toEqual(['fr-plan.md']);
    expect(marked(body, 'fr-plan.md')).toEqual(['Société']);
  });
});
