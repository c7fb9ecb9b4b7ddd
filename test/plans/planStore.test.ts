import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlanStore } from '../../src/domain/plans/planStore.js';
import { TempHome, eventually } from '../helpers/home.js';

let home: TempHome;
const noLinks = { linkForPlan: () => null };

beforeEach(async () => {
  home = await TempHome.create();
});

afterEach(async () => {
  await home.cleanup();
});

describe('PlanStore', () => {
  it('lists the newer of two plans with the same name and logs the clash once', async () => {
    const warnings: string[] = [];
    const other = path.join(home.root, 'repos/webapp/docs/plans');
    await home.plan('same.md', '# Old\n', new Date('2026-01-01T00:00:00Z'));
    await home.write(path.join(other, 'same.md'), '# New\n', new Date('2026-02-01T00:00:00Z'));
    const store = new PlanStore(noLinks, { warn: (m) => warnings.push(m) });
    await store.rescan([path.join(home.claude, 'plans'), other]);
    // Counted as listed (once), before and after list() makes its objects.
    expect(store.count).toBe(1);
    expect(store.list().map((p) => [p.filename, p.title])).toEqual([['same.md', 'New']]);
    expect(store.count).toBe(1);
    expect(await store.content('same.md')).toBe('# New\n');
    store.linksChanged();
    store.list();
    expect(warnings.filter((w) => w.includes('same.md'))).toHaveLength(1);
  });

  it('skips FIFOs, directories named *.md, dotfiles and temp files without hanging, and keeps the rest', async () => {
    const dir = path.join(home.claude, 'plans');
    await home.plan('good.md', '# Good\n');
    await mkdir(path.join(dir, 'folder.md'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
    await home.plan('.secret.md', '# no\n');
    await home.plan('x.md.tmp.1.abcdef012345', '# no\n');
    await symlink(path.join(dir, 'good.md'), path.join(dir, 'alias.md'));
    await symlink(path.join(dir, 'missing.md'), path.join(dir, 'dangling.md'));
    const store = new PlanStore(noLinks);
    await store.rescan([dir]);
    expect(store.list().map((p) => p.filename).sort()).toEqual(['alias.md', 'good.md']);
    expect(await store.content('pipe.md')).toBeNull();
  });

  it('drops a plan deleted between listing and reading, and answers null for its content', async () => {
    const file = await home.plan('vanishing.md', '# Soon gone\n');
    const store = new PlanStore(noLinks);
    await store.rescan([path.dirname(file)]);
    execFileSync('rm', [file]);
    expect(await store.content('vanishing.md')).toBeNull();
    await store.updatePath(file);
    expect(store.list()).toEqual([]);
  });

  it('gives the same answers before and after its search filters are built', async () => {
    const dir = path.join(home.claude, 'plans');
    for (let i = 0; i < 40; i++) await home.plan(`p${i}.md`, `# Plan ${i}\n${i % 7 === 0 ? 'xylophonic ' : ''}words ${i} Größe\n`);
    const store = new PlanStore(noLinks);
    await store.rescan([dir]);
    const queries = ['xylophonic', 'XYLO', 'größe', 'words 1', 'zz', 'plan 3', 'nothing-here'];
    const before = await Promise.all(queries.map((q) => store.search(q)));
    expect(store.filtersReady).toBe(false);
    expect(await eventually(() => store.filtersReady)).toBe(true);
    expect(await Promise.all(queries.map((q) => store.search(q)))).toEqual(before);
    expect(before[0]).toHaveLength(6);
  });

  it('searches literally in list order and reports counts', async () => {
    await home.plan('a.md', 'Regex chars (a+b)* here\n', new Date('2026-01-02T00:00:00Z'));
    await home.plan('b.md', 'and (A+B)* again\n', new Date('2026-01-03T00:00:00Z'));
    const store = new PlanStore(noLinks);
    await store.rescan([path.join(home.claude, 'plans')]);
    expect(await store.search('(a+b)*')).toEqual(['b.md', 'a.md']);
    expect(await store.search('')).toEqual([]);
    expect(store.count).toBe(2);
  });
});
