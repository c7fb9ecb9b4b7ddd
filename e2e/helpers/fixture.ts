// A fixture Claude Code home in a temp dir, in the on-disk formats of claude-code-formats.md:
// plans, session logs that tie plans to projects and sessions, and auto memory (healthy, over the
// line limit, over the character limit, and a project whose default memory is inactive).
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { conversationLine } from '../../test/helpers/home.js';

export interface Fixture {
  root: string;
  home: string;
  plansDir: string;
  cwd: Record<'webapp' | 'api' | 'docs' | 'legacy' | 'mobile', string>;
  sessions: { webapp: string; api: string };
  /** Plans written by the fixture, by role. */
  plans: { rich: string; login: string; xss: string; htmlName: string; generated: string[] };
  memoryDir: Record<'webapp' | 'api' | 'docs' | 'legacyDefault' | 'legacyCustom', string>;
  /** 1-based number of the last MEMORY.md line Claude Code reads in the docs index (character cut). */
  docsKeptLines: number;
  cleanup(): Promise<void>;
}

export const encodeKey = (p: string): string => p.replace(/[^A-Za-z0-9]/g, '-');

/** A project a test adds to the fixture: its cwd, its folder's key and its memory folder. */
export interface MemoryProject {
  cwd: string;
  id: string;
  memoryDir: string;
}

/**
 * Adds a project `name` (under <root>/work) with one session log and these files in its memory folder, so that
 * the viewer lists its memory as an active source.
 */
export async function addMemoryProject(fx: Fixture, name: string, sessionId: string, files: Record<string, string>): Promise<MemoryProject> {
  const cwd = path.join(fx.root, 'work', name);
  const id = encodeKey(cwd);
  const project = path.join(fx.home, 'projects', id);
  const memoryDir = path.join(project, 'memory');
  await mkdir(cwd, { recursive: true });
  await write(path.join(project, `${sessionId}.jsonl`), `${conversationLine(cwd, sessionId, null)}\n`);
  await mkdir(memoryDir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await write(path.join(memoryDir, file), text);
  return { cwd, id, memoryDir };
}

function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `1b0c4f7e-2d3a-4c5b-9e8f-${hex}`;
}

async function write(file: string, text: string, ageMinutes?: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  if (ageMinutes !== undefined) {
    const t = new Date(Date.now() - ageMinutes * 60_000);
    await utimes(file, t, t);
  }
}

export const RICH_PLAN = `# Plan: Add a dark mode to the web app

Claude will add a theme switch that follows the system setting. Search for zebracorn to find this line.

## Context

The app has ~~one~~ a single light theme. Users asked for dark mode (see https://example.com/issues/42).
Related: [the login plan](fix-login-bug-snug-otter.md) and [a source file](src/theme.ts).

## Steps

- [x] Audit the colours
- [ ] Add CSS variables
- [ ] Add the toggle

| File | Change | Risk |
|------|--------|------|
| theme.css | new variables | low |
| App.tsx | toggle | medium |

## Code

\`\`\`ts
export function applyTheme(dark: boolean): void {
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
\`\`\`

\`\`\`python
def contrast(a, b):
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
\`\`\`

## Diagram

\`\`\`mermaid
flowchart LR
  A[System setting] --> B{Override?}
  B -- yes --> C[User choice]
  B -- no --> D[Follow system]
  C --> E[Apply theme]
  D --> E
  E --> F[Persist in localStorage]
  F --> G[Render]
  G --> H[Done]
\`\`\`

## Rollout

${Array.from({ length: 30 }, (_, i) => `Rollout note ${i + 1}: ship it carefully, watch the zebracorn metrics.`).join('\n\n')}

## Verification

Check contrast in both themes. Final zebracorn check.
`;

export const XSS_PLAN = `# Plan: XSS <img src=x onerror="window.__xss='title'"> <b>bold</b>

<script>window.__xss = 'script'; alert('script')</script>

<img src=x onerror="window.__xss='img'; alert('img')">

[click me](javascript:window.__xss='link')

[data link](data:text/html,<script>window.__xss='data'</script>)

<a href="javascript:window.__xss='a'">raw anchor</a>

<iframe src="https://evil.example/frame"></iframe>

<svg onload="window.__xss='svg'"></svg>

![pixel](https://evil.example/pixel.png)

Autolink: https://evil.example/page and <javascript:alert(1)>
`;

export async function buildFixture(): Promise<Fixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'pmv-e2e-'));
  const home = path.join(root, 'home');
  const plansDir = path.join(home, 'plans');
  const cwd = {
    webapp: path.join(root, 'work', 'webapp'),
    api: path.join(root, 'work', 'api'),
    docs: path.join(root, 'work', 'docs'),
    legacy: path.join(root, 'work', 'legacy'),
    mobile: path.join(root, 'work', 'mobile'),
  };
  for (const dir of Object.values(cwd)) await mkdir(dir, { recursive: true });
  const projectDir = (p: keyof typeof cwd) => path.join(home, 'projects', encodeKey(cwd[p]));
  const sessions = { webapp: uuid(1), api: uuid(2) };

  // Plans ------------------------------------------------------------------------------------------
  const rich = 'add-dark-mode-happy-otter.md';
  const login = 'fix-login-bug-snug-otter.md';
  const xss = 'xss-payload-evil-fox.md';
  const htmlName = '"><img src=x onerror=window.__xss=7>.md';
  await write(path.join(plansDir, rich), RICH_PLAN, 1);
  await write(
    path.join(plansDir, login),
    `# Plan: Fix the login bug\n\nThe session cookie expires too early.\n\n## Steps\n\n1. Reproduce\n2. Fix the expiry\n3. Test\n`,
    30,
  );
  await write(path.join(plansDir, xss), XSS_PLAN, 60);
  await write(path.join(plansDir, htmlName), `# Plan: <i>file name</i> attack\n\nA plan whose file name is HTML.\n`, 90);
  await write(path.join(projectDir('webapp'), `${sessions.webapp}.jsonl`), `${conversationLine(cwd.webapp, sessions.webapp, 'add-dark-mode-happy-otter')}\n`);
  await write(path.join(projectDir('api'), `${sessions.api}.jsonl`), `${conversationLine(cwd.api, sessions.api, 'fix-login-bug-snug-otter')}\n`);

  const generated: string[] = [];
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  for (let i = 1; i <= 60; i += 1) {
    const slug = `task-${String(i).padStart(2, '0')}-${words[i % words.length]}-lynx`;
    const file = `${slug}.md`;
    generated.push(file);
    const body = Array.from({ length: i * 3 }, (_, k) => `- step ${k + 1} of task ${i}`).join('\n');
    await write(path.join(plansDir, file), `# Plan: Task ${String(i).padStart(2, '0')} ${words[i % words.length]}\n\n${body}\n`, 120 + i * 60);
    const project = i % 3 === 0 ? null : i % 3 === 1 ? 'webapp' : 'api';
    if (project) {
      const sid = uuid(100 + i);
      await write(path.join(projectDir(project), `${sid}.jsonl`), `${conversationLine(cwd[project], sid, slug)}\n`);
    }
  }

  // Memory: webapp (healthy, with orphan, dangling and a broken wikilink) -------------------------
  const webMem = path.join(projectDir('webapp'), 'memory');
  await write(
    path.join(webMem, 'MEMORY.md'),
    [
      '# Memory',
      '',
      '- [User role](user-role.md) — senior backend engineer, new to React',
      '- [Testing style](testing-style.md) — integration tests, no mocks',
      '- [Reference links](reference-links.md) — dashboards and docs',
      '- [Deleted topic](deleted-topic.md) — this file is gone',
      '',
    ].join('\n'),
  );
  await write(
    path.join(webMem, 'user-role.md'),
    `---\nname: user-role\ndescription: "Senior backend engineer, new to React"\nmetadata:\n  node_type: memory\n  type: user\n  originSessionId: ${sessions.webapp}\n  modified: 2026-11-19T09:12:44.120Z\n---\n# User role\n\nWorks mostly on Go services. Prefers [[testing-style]]; explain React in backend terms.\n\nSee also [[ghost-memory]] (which does not exist) and [the index](MEMORY.md).\n`,
  );
  await write(
    path.join(webMem, 'testing-style.md'),
    `---\nname: testing-style\ndescription: Integration tests against a real database, no mocks\ntype: feedback\n---\n# Testing style\n\nA mocked test once hid a broken migration. Written for the [user role](user-role.md).\n`,
  );
  await write(
    path.join(webMem, 'reference-links.md'),
    `---\nname: reference-links\ndescription: Where the dashboards live\nmetadata:\n  type: reference\n---\n# Reference links\n\n- Grafana: https://grafana.example/d/abc\n`,
  );
  await write(
    path.join(webMem, 'orphan-note.md'),
    `---\nname: orphan-note\ndescription: A topic MEMORY.md forgot to link\nmetadata:\n  type: project\n---\n# Orphan note\n\nMentions [[user-role]].\n`,
  );

  // Memory: api (over the 200-line limit; one topic linked only after the cut) -------------------
  const apiMem = path.join(projectDir('api'), 'memory');
  const apiLines = ['# API memory'];
  for (let n = 1; n <= 10; n += 1) apiLines.push(`- [Topic ${n}](topic-${n}.md) — hook ${n}`);
  while (apiLines.length < 214) apiLines.push(`- Note line ${apiLines.length + 1}: the API keeps its own conventions`);
  apiLines.push('- [Late topic](late-topic.md) — linked only after the cut');
  apiLines.push('- [Topic 1 again](topic-1.md) — linked before and after');
  while (apiLines.length < 230) apiLines.push(`- Tail line ${apiLines.length + 1}: never read by Claude Code`);
  await write(path.join(apiMem, 'MEMORY.md'), `${apiLines.join('\n')}\n`);
  for (let n = 1; n <= 10; n += 1) {
    await write(path.join(apiMem, `topic-${n}.md`), `---\nname: topic-${n}\ndescription: Topic ${n}\ntype: project\n---\nBody ${n}.\n`);
  }
  await write(path.join(apiMem, 'late-topic.md'), `---\nname: late-topic\ndescription: Only linked after the cut\ntype: reference\n---\nLate.\n`);

  // Memory: docs (over 25,000 characters in fewer than 200 lines) ---------------------------------
  const docsMem = path.join(projectDir('docs'), 'memory');
  const LINE = 249; // + newline = 250 characters per line
  const pad = (s: string) => (s + ' ' + 'lorem ipsum dolor sit amet '.repeat(12)).slice(0, LINE);
  const docLines: string[] = [pad('# Docs memory')];
  for (let n = 2; n <= 120; n += 1) {
    const label = `Note ${String(n).padStart(3, '0')}`;
    docLines.push(n === 110 ? pad(`- [Late doc](late-doc.md) ${label}`) : n === 5 ? pad(`- [Early doc](early-doc.md) ${label}`) : pad(`- ${label}`));
  }
  await write(path.join(docsMem, 'MEMORY.md'), docLines.join('\n') + '\n');
  await write(path.join(docsMem, 'early-doc.md'), `---\nname: early-doc\ndescription: Early\ntype: reference\n---\nEarly.\n`);
  await write(path.join(docsMem, 'late-doc.md'), `---\nname: late-doc\ndescription: Late\ntype: reference\n---\nLate.\n`);
  await write(path.join(projectDir('docs'), `${uuid(3)}.jsonl`), `${conversationLine(cwd.docs, uuid(3), null)}\n`);

  // Memory: legacy (default folder replaced by a custom autoMemoryDirectory => inactive) ----------
  const legacyDefault = path.join(projectDir('legacy'), 'memory');
  const legacyCustom = path.join(root, 'legacy-custom-memory');
  await write(path.join(legacyDefault, 'MEMORY.md'), '# Old memory\n\n- [Old](old.md) — from before the setting\n');
  await write(path.join(legacyDefault, 'old.md'), '---\nname: old\ndescription: Old topic\ntype: user\n---\nOld.\n');
  await write(path.join(legacyCustom, 'MEMORY.md'), '# Legacy memory (custom folder)\n\n- [Current](current.md) — active topic\n');
  await write(path.join(legacyCustom, 'current.md'), '---\nname: current\ndescription: Current topic\ntype: project\n---\nCurrent.\n');
  await write(path.join(cwd.legacy, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: legacyCustom }));
  await write(path.join(projectDir('legacy'), `${uuid(4)}.jsonl`), `${conversationLine(cwd.legacy, uuid(4), null)}\n`);

  // Memory: mobile (170 of 200 lines: "near" the limit) --------------------------------------------
  const mobileMem = path.join(projectDir('mobile'), 'memory');
  const mobileLines = ['# Mobile memory', '- [Release](release.md) — how releases go'];
  while (mobileLines.length < 170) mobileLines.push(`- Mobile note ${mobileLines.length + 1}`);
  await write(path.join(mobileMem, 'MEMORY.md'), `${mobileLines.join('\n')}\n`);
  await write(path.join(mobileMem, 'release.md'), '---\nname: release\ndescription: Release steps\ntype: project\n---\nShip on Tuesdays.\n');
  await write(path.join(projectDir('mobile'), `${uuid(5)}.jsonl`), `${conversationLine(cwd.mobile, uuid(5), null)}\n`);

  return {
    root,
    home,
    plansDir,
    cwd,
    sessions,
    plans: { rich, login, xss, htmlName, generated },
    memoryDir: { webapp: webMem, api: apiMem, docs: docsMem, legacyDefault, legacyCustom },
    // 25,000 / 250 = 100 lines end at or before character 25,000 (the 100th newline sits at 24,999).
    docsKeptLines: 100,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
