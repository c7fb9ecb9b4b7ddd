// The facts derived from transcripts in the shapes real Claude Code homes hold (docs/claude-code-formats.md),
// through the HTTP API, each a case the line-window readers got wrong: keys past a line's first or last
// bytes (2.1.38/2.1.39 key order), a home restored from another machine, subagent task prompts, logs without
// `last-prompt`, command lines, a `cd` mid-session, worktrees, workflow subagents, two paths in one project
// folder, and 2.1.228's ExitPlanMode that carries the plan.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanEvent, PlanVersion, SessionCard } from '../../src/domain/types.js';
import { startServer, type Running } from '../helpers/http.js';
import { encodeCwd, TempHome, uuid } from '../helpers/home.js';

let home: TempHome;
let server: Running;
let repo: string;
let plans: string;

interface History {
  versions: PlanVersion[];
  events: PlanEvent[];
  sessions: string[];
}

const at = (minute: number, second = 0): string => new Date(Date.UTC(2026, 1, 10, 9, minute, second)).toISOString();
const history = (name: string): Promise<History> => server.json<History>(`/api/plans/${encodeURIComponent(name)}/history`);
const card = (id: string): Promise<SessionCard> => server.json<SessionCard>(`/api/sessions/${id}`);
const version = async (name: string, id: string): Promise<string> =>
  (await server.json<{ content: string }>(`/api/plans/${encodeURIComponent(name)}/versions/${encodeURIComponent(id)}`)).content;

/** A conversation line in the key order of 2.1.38/2.1.39: session keys first, then type and message, then uuid and time. */
function old(o: { cwd: string; sessionId: string; slug?: string; type: string; message: unknown; at: string; extra?: Record<string, unknown> }): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, userType: 'external', cwd: o.cwd, sessionId: o.sessionId, version: '2.1.39', gitBranch: 'feature/x',
    ...(o.slug ? { slug: o.slug } : {}), type: o.type, message: o.message, uuid: `u-${o.at}`, timestamp: o.at, ...(o.extra ?? {}),
  });
}

/** A conversation line in today's key order: type and message first, session keys at the end. */
function now(o: { cwd: string; sessionId: string; slug?: string; type: string; message: unknown; at: string; extra?: Record<string, unknown> }): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, type: o.type, message: o.message, uuid: `u-${o.at}`, timestamp: o.at, ...(o.extra ?? {}),
    userType: 'external', entrypoint: 'cli', cwd: o.cwd, sessionId: o.sessionId, version: '2.1.329', gitBranch: 'main', ...(o.slug ? { slug: o.slug } : {}),
  });
}

const toolUse = (id: string, name: string, input: unknown) => ({ role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id, name, input }] });
/** A 2.1.39 tool result: the long text first, its tool_use_id after it. */
const result = (id: string, text: string, isError = false) => ({ role: 'user', content: [{ type: 'tool_result', content: text, is_error: isError, tool_use_id: id }] });
const said = (text: string) => ({ role: 'user', content: text });

async function log(file: string, lines: string[]): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

const projectDir = (cwd: string): string => path.join(home.claude, 'projects', encodeCwd(cwd));
const filler = (bytes: number): string => 'The tool printed this line of output. '.repeat(Math.ceil(bytes / 38)).slice(0, bytes);

const S1 = uuid(0x391); // 2.1.39 approval past 8 KB, rejection with words, long lines
const S2 = uuid(0x392); // a restored home's writes
const S3 = uuid(0x393); // prompts: subagent task, commands, no last-prompt
const S4 = uuid(0x394); // cd mid-session
const S5 = uuid(0x395); // worktree
const S6 = uuid(0x396); // 2.1.228 ExitPlanMode with the plan
const S7 = uuid(0x397); // second path in one project folder

const PLAN1_V1 = '# Plan: Cache the user list\n\n1. Add an LRU cache\n2. Invalidate on write\n';
const PLAN1_V2 = `# Plan: Cache the user list\n\n1. Add an LRU cache with a TTL\n2. Invalidate on write\n\n## Notes\n\n${filler(9000)}\n`;
const APPROVED_TEXT = '# Plan: Export to CSV\n\n1. Add the button\n2. Stream rows\n3. Test with 1M rows\n';

beforeAll(async () => {
  home = await TempHome.create('pmv-real-shapes-');
  repo = await home.repo('api-server');
  plans = path.join(home.claude, 'plans');
  await mkdir(plans, { recursive: true });

  // 1. 2.1.39: a rejection with the user's words, then an approval whose tool_use_id is ~9 KB into its line,
  //    and user lines whose "type" sits ~300 bytes in, with 300 KB of content and the session's last time.
  const cache = path.join(plans, 'cache-the-user-list-brave-heron.md');
  const s1 = { cwd: repo, sessionId: S1, slug: 'cache-the-user-list-brave-heron' };
  await log(path.join(projectDir(repo), `${S1}.jsonl`), [
    old({ ...s1, slug: undefined, type: 'user', message: said('Cache the user list, it is slow'), at: at(0) }),
    old({ ...s1, type: 'assistant', message: toolUse('toolu_w1', 'Write', { file_path: cache, content: PLAN1_V1 }), at: at(1) }),
    old({ ...s1, type: 'assistant', message: toolUse('toolu_x1', 'ExitPlanMode', { plan: PLAN1_V1 }), at: at(2) }),
    old({ ...s1, type: 'user', message: result('toolu_x1', `${filler(6000)}\nThe user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\nAdd a TTL, entries go stale`, true), at: at(3) }),
    old({ ...s1, type: 'assistant', message: toolUse('toolu_w2', 'Write', { file_path: cache, content: PLAN1_V2 }), at: at(4) }),
    old({ ...s1, type: 'assistant', message: toolUse('toolu_x2', 'ExitPlanMode', { plan: PLAN1_V2 }), at: at(5) }),
    old({ ...s1, type: 'user', message: result('toolu_x2', `User has approved your plan. You can now start coding.\n\n## Approved Plan:\n${PLAN1_V2}`), at: at(6) }),
    old({ ...s1, type: 'user', message: said(`Now run it against ${filler(300_000)}`), at: at(40) }),
    JSON.stringify({ type: 'summary', summary: 'User list cache', leafUuid: 'x' }),
  ]);
  await writeFile(cache, PLAN1_V2);

  // 2. A home restored from another machine: the writes name /home/olduser/.claude/plans/<name>.md.
  const restoredName = 'migrate-the-db-calm-otter.md';
  const s2 = { cwd: '/home/olduser/src/db', sessionId: S2, slug: 'migrate-the-db-calm-otter' };
  const foreign = `/home/olduser/.claude/plans/${restoredName}`;
  await log(path.join(projectDir('/home/olduser/src/db'), `${S2}.jsonl`), [
    now({ ...s2, type: 'user', message: said('Plan the migration'), at: at(0) }),
    now({ ...s2, type: 'assistant', message: toolUse('toolu_r1', 'Write', { file_path: foreign, content: '# Migrate\n\nStep one.\n' }), at: at(1) }),
    now({ ...s2, type: 'assistant', message: toolUse('toolu_r2', 'Edit', { file_path: foreign, old_string: 'Step one.', new_string: 'Step one, then two.' }), at: at(2) }),
  ]);
  await writeFile(path.join(plans, restoredName), '# Migrate\n\nStep one, then two.\n');

  // 3. Prompts: the subagent's log (written first) starts with its task; a slash command and its output,
  //    an interruption and a meta line are no prompts; no last-prompt line.
  const s3 = { cwd: repo, sessionId: S3, slug: 'fix-login-quick-fox' };
  const sub = path.join(projectDir(repo), S3, 'subagents', 'agent-a1b2c3d4e5f6a7b8c.jsonl');
  await log(sub, [now({ ...s3, type: 'user', message: said('Explore the auth module and report back'), at: at(0, 1), extra: { isSidechain: true, agentId: 'a1b2c3d4e5f6a7b8c' } })]);
  const workflow = path.join(projectDir(repo), S3, 'subagents', 'workflows', 'run-1', 'agent-b2c3d4e5f6a7b8c9d.jsonl');
  await log(workflow, [now({ ...s3, type: 'user', message: said('Workflow step'), at: at(0, 2), extra: { isSidechain: true, agentId: 'b2c3d4e5f6a7b8c9d' } })]);
  await log(path.join(projectDir(repo), `${S3}.jsonl`), [
    now({ ...s3, type: 'user', message: said('<command-name>/model</command-name>\n<command-message>model</command-message>'), at: at(0) }),
    now({ ...s3, type: 'user', message: said('<local-command-stdout>Set model to opus</local-command-stdout>'), at: at(0, 5) }),
    now({ ...s3, type: 'user', message: said('Caveat: the messages below were generated by the user while running local commands.'), at: at(0, 6), extra: { isMeta: true } }),
    now({ ...s3, type: 'user', message: said('Fix the login redirect loop'), at: at(1) }),
    now({ ...s3, type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, at: at(2) }),
    now({ ...s3, type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Also keep the return URL' }] }, at: at(3) }),
    now({ ...s3, type: 'user', message: said('<command-name>/compact</command-name>'), at: at(4) }),
  ]);

  // 4. A `cd` into a subfolder mid-session: the session still belongs where it started.
  const s4 = { cwd: repo, sessionId: S4, slug: 'tidy-packages-swift-owl' };
  await log(path.join(projectDir(repo), `${S4}.jsonl`), [
    now({ ...s4, type: 'user', message: said('Tidy the packages'), at: at(0) }),
    now({ ...s4, cwd: path.join(repo, 'packages', 'core'), type: 'user', message: said('Now in core'), at: at(5) }),
  ]);
  await writeFile(path.join(plans, 'tidy-packages-swift-owl.md'), '# Tidy\n');

  // 5. A session in a worktree of the repository.
  const worktree = path.join(repo, '.claude', 'worktrees', 'eager-lamport');
  await log(path.join(projectDir(worktree), `${S5}.jsonl`), [
    now({ cwd: worktree, sessionId: S5, slug: 'add-metrics-happy-lynx', type: 'user', message: said('Add metrics'), at: at(0) }),
  ]);
  await writeFile(path.join(plans, 'add-metrics-happy-lynx.md'), '# Metrics\n');

  // 6. 2.1.228: ExitPlanMode carries {plan, planFilePath}; the approving line a toolUseResult sidecar. The
  //    person approved a text the file does not hold (Claude Code rewrote the file after).
  const csv = path.join(plans, 'export-to-csv-jolly-wren.md');
  const s6 = { cwd: repo, sessionId: S6, slug: 'export-to-csv-jolly-wren' };
  await log(path.join(projectDir(repo), `${S6}.jsonl`), [
    now({ ...s6, type: 'assistant', message: toolUse('toolu_c1', 'Write', { file_path: csv, content: '# Plan: Export to CSV\n\n1. Add the button\n' }), at: at(1) }),
    now({ ...s6, type: 'assistant', message: toolUse('toolu_c2', 'ExitPlanMode', { plan: APPROVED_TEXT, planFilePath: csv }), at: at(2) }),
    now({ ...s6, type: 'user', message: result('toolu_c2', `User has approved your plan. Your plan has been saved to: ${csv}`), at: at(3), extra: { toolUseResult: { filePath: csv, isAgent: false, plan: APPROVED_TEXT } } }),
  ]);
  await writeFile(csv, '# Plan: Export to CSV\n\n1. Add the button\n2. Stream rows\n');

  // 7. One project folder (named after the repo) holding a session of a second path (2.1.239).
  await log(path.join(projectDir(repo), `${S7}.jsonl`), [
    now({ cwd: `${repo}_old`, sessionId: S7, slug: 'old-copy-quiet-bat', type: 'user', message: said('In the old copy'), at: at(0) }),
  ]);
  await writeFile(path.join(plans, 'old-copy-quiet-bat.md'), '# Old copy\n');

  server = await startServer({ claudeDir: home.claude, homeDir: home.root });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('facts wherever they sit in a line', () => {
  it('records a 2.1.39 rejection with its words and an approval whose tool_use_id is past 8 KB', async () => {
    const story = await history('cache-the-user-list-brave-heron.md');
    const events = story.events.filter((e) => e.kind === 'plan-approved' || e.kind === 'plan-rejected');
    expect(events.map((e) => [e.kind, e.at, e.feedback])).toEqual([
      // Dated by the answers (their result lines), a minute after each call.
      ['plan-rejected', at(3), 'Add a TTL, entries go stale'],
      ['plan-approved', at(6), null],
    ]);
    expect(story.versions.map((v) => v.source)).toEqual(['write', 'write']);
  });

  it('takes a session\'s first and last times from every line, a 300 KB one with its keys first included', async () => {
    const c = await card(S1);
    expect([c.firstAt, c.lastAt]).toEqual([at(0), at(40)]);
    expect(c.firstPrompt).toBe('Cache the user list, it is slow');
    expect(c.lastPrompt?.startsWith('Now run it against The tool printed')).toBe(true);
    expect([c.gitBranch, c.version, c.title]).toEqual(['feature/x', '2.1.39', 'User list cache']);
  });
});

describe('a home restored from another machine', () => {
  it('matches writes under another home\'s .claude/plans to the plan of that name', async () => {
    const story = await history('migrate-the-db-calm-otter.md');
    expect(story.versions.map((v) => v.source)).toEqual(['write', 'edit']);
    expect(await version('migrate-the-db-calm-otter.md', story.versions[1]!.id)).toBe('# Migrate\n\nStep one, then two.\n');
    expect(story.sessions).toContain(S2);
  });
});

describe('session cards', () => {
  it('takes the first prompt from the main transcript and skips what the person did not type; the last prompt falls back to the last typed', async () => {
    const c = await card(S3);
    expect(c.firstPrompt).toBe('Fix the login redirect loop');
    expect(c.lastPrompt).toBe('Also keep the return URL');
  });

  it('lists workflow subagents beside the others', async () => {
    const c = await card(S3);
    expect(c.subagents.map((s) => s.agentId)).toEqual(['a1b2c3d4e5f6a7b8c', 'b2c3d4e5f6a7b8c9d']);
  });

  it('resumes a session in the directory it started in after a cd, under the repository\'s project', async () => {
    const c = await card(S4);
    expect(c.cwd).toBe(repo);
    expect(c.project).toBe('api-server');
    expect(c.resumeCommand).toBe(`cd ${repo} && claude --resume ${S4}`);
    const listed = (await server.json<{ plans: { filename: string; project: string | null }[] }>('/api/plans')).plans;
    expect(listed.find((p) => p.filename === 'tidy-packages-swift-owl.md')?.project).toBe('api-server');
  });

  it('gives a worktree\'s session the repository\'s project', async () => {
    const c = await card(S5);
    expect(c.project).toBe('api-server');
    expect(c.cwd).toBe(path.join(repo, '.claude', 'worktrees', 'eager-lamport'));
    const listed = (await server.json<{ plans: { filename: string; project: string | null }[] }>('/api/plans')).plans;
    expect(listed.find((p) => p.filename === 'add-metrics-happy-lynx.md')?.project).toBe('api-server');
  });

  it('keeps each session\'s own cwd when one project folder holds two paths', async () => {
    expect((await card(S7)).cwd).toBe(`${repo}_old`);
    expect((await card(S4)).cwd).toBe(repo);
  });
});

describe('2.1.228: ExitPlanMode with the plan', () => {
  it('makes the text the person approved a version of its own when it differs from the file', async () => {
    const story = await history('export-to-csv-jolly-wren.md');
    expect(story.versions.map((v) => v.source)).toEqual(['write', 'approved', 'disk']);
    const approved = story.versions[1]!;
    expect([approved.at, approved.sessionId]).toEqual([at(2), S6]);
    expect(await version('export-to-csv-jolly-wren.md', approved.id)).toBe(APPROVED_TEXT);
    expect(story.events.filter((e) => e.kind === 'plan-approved').map((e) => e.at)).toEqual([at(3)]);
  });
});
