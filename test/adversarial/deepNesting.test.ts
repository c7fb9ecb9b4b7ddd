// Memory files nested thousands of levels deep, against the real CLI process. The YAML parser recursed
// once per level: two topics whose frontmatter nested a flow sequence 5,000 deep (`name: [[[[…]]]]`,
// 10 KB) overflowed its stack and V8 aborted the process at start-up (`FATAL ERROR: RegExpCompiler
// Allocation failed`, exit 134), which no `try` can catch. A repository can ship such files through its
// own autoMemoryDirectory. Here 20 of them are present at start and 20 more arrive while it runs, nested
// in every way frontmatter and markdown nest; every request must keep being answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerUrl, runCli, type CliRun } from '../helpers/cli.js';
import { eventually, TempHome, uuid } from '../helpers/home.js';

const DEPTH = 5000;
/** Hostile memory topics: frontmatter and bodies nested DEPTH levels in every way YAML and markdown nest. */
const SHAPES: ((i: number) => string)[] = [
  // The file of the report: a flow sequence 5,000 deep in `name:` (10 KB, past the YAML size bound too).
  () => `---\nname: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n---\n`,
  // Under the size bound, so only the depth bound keeps them from the parser.
  (i) => `---\nname: seq-${i}\nk: ${'['.repeat(3000)}${']'.repeat(3000)}\n---\n`,
  (i) => `---\ndescription: compact-${i}\n${'- '.repeat(3000)}x\n---\n`,
  (i) => `---\ndescription: keys-${i}\n${'? '.repeat(3000)}x\n---\n`,
  // Markdown nested as deep, for the link scan and the UI's renderer.
  (i) => `---\nname: quotes-${i}\n---\n${'>'.repeat(100_000)} [[deep-0]] [x](deep-1.md)\n`,
  (i) => `---\nname: lists-${i}\n---\n${'- '.repeat(50_000)}[x](deep-2.md)\n${'['.repeat(50_000)}${'](x'.repeat(20_000)}\n`,
];

let home: TempHome;
let memoryDir: string;
let run: CliRun | null = null;

beforeAll(async () => {
  home = await TempHome.create('pmv-deep-');
  const repo = await home.repo('deep');
  const key = repo.replace(/[^A-Za-z0-9]/g, '-');
  memoryDir = `projects/${key}/memory`;
  await home.plan('ordinary-plan.md', '# Plan: Ordinary\n\nNeedle zebracorn.\n');
  await home.session(repo, uuid(1), ['ordinary-plan']);
  await home.write(`${memoryDir}/MEMORY.md`, `# Memory\n\n${Array.from({ length: 40 }, (_, i) => `- [Deep ${i}](deep-${i}.md)`).join('\n')}\n`);
  for (let i = 0; i < 20; i++) await home.write(`${memoryDir}/deep-${i}.md`, fileText(i));
});

/** The first 20 are the file of the report; those written later cycle through every shape. */
function fileText(i: number): string {
  return SHAPES[i < 20 ? 0 : i % SHAPES.length]!(i);
}

afterAll(async () => {
  if (run && run.child.exitCode === null) {
    run.child.kill('SIGTERM');
    await run.exited;
  }
  await home?.cleanup();
});

interface Listing {
  entries: { id: string; filename: string; name: string }[];
  sources: { index: { danglingLinks: string[] } | null }[];
}

describe('memory files nested 5,000 levels deep', () => {
  it('never end the process: present at start and written while it runs, every request answered', async () => {
    run = runCli(['--port', '0', '--claude-dir', home.claude], { env: { ...process.env, HOME: home.root } });
    const url = await bannerUrl(run, 60_000);
    const get = async (path: string): Promise<{ status: number; body: string }> => {
      const res = await fetch(new URL(path, url));
      return { status: res.status, body: await res.text() };
    };
    const listing = async (): Promise<Listing> => JSON.parse((await get('api/memory')).body) as Listing;

    // Meanwhile, a client keeps asking everything; every answer must be a 200.
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling && run!.child.exitCode === null) {
        for (const path of ['api/plans', 'api/memory', 'api/search?q=zebracorn', 'api/memory/search?q=deep', 'api/projects']) {
          // A refused connection (the process died) counts as an unanswered request: status 0.
          statuses.push(await get(path).then((r) => r.status, () => 0));
        }
      }
    })();

    const check = async (count: number): Promise<void> => {
      const entries = await eventually(async () => {
        const found = (await listing()).entries.filter((e) => e.filename.startsWith('deep-'));
        return found.length === count ? found : null;
      }, 60_000);
      expect(entries?.length).toBe(count);
      for (const entry of entries!) {
        const content = await get(`api/memory/content?id=${encodeURIComponent(entry.id)}`);
        expect(content.status).toBe(200);
        const i = Number(/deep-(\d+)\.md/.exec(entry.filename)![1]);
        expect((JSON.parse(content.body) as { content: string }).content).toBe(fileText(i));
      }
      // The index links to all 40; the ones not written yet are its dangling links.
      expect((await listing()).sources[0]!.index!.danglingLinks).toHaveLength(40 - count);
      expect((await get('api/search?q=zebracorn')).body).toBe('{"filenames":["ordinary-plan.md"]}');
      if (count === 40) expect(JSON.parse((await get('api/memory/search?q=compact-26')).body)).toEqual({ ids: [expect.stringMatching(/\/deep-26\.md$/)] });
    };

    try {
      await check(20);
      for (let i = 20; i < 40; i++) await home.write(`${memoryDir}/deep-${i}.md`, fileText(i));
      await check(40);
    } finally {
      polling = false;
      await poller.catch(() => undefined);
    }
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(run.child.exitCode).toBeNull();
    expect(run.stderr()).not.toContain('FATAL');
  }, 180_000);
});
