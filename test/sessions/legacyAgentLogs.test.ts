// Subagent logs of Claude Code before 2.1.2 sit beside the sessions (`projects/<folder>/agent-<id>.jsonl`)
// and carry the parent session's sessionId and slug: a plan written in such a subagent is linked only
// through them. Every way the viewer learns about logs must find them: the first scan on this thread and
// in the workers, a restart from the persisted index (including one saved before they counted as logs),
// and the watchers while it runs.
import { appendFile, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DERIVATION_VERSION } from '../../src/domain/derivation.js';
import { SessionIndexCache } from '../../src/domain/sessions/indexCache.js';
import { refreshesInWorkers, WORKER_MIN_FOLDERS } from '../../src/domain/sessions/indexHelpers.js';
import { Viewer } from '../../src/viewer.js';
import { conversationLine, encodeCwd, eventually, TempHome, uuid } from '../helpers/home.js';
import { legacyAgentLine, readIndexCache, writeIndexCache } from './helpers.js';

let home: TempHome;
let cache: string;
let warnings: string[];
let repo: string;
const PARENT = uuid(1);
const AGENT_ID = '6c6a1b5e';

beforeEach(async () => {
  home = await TempHome.create('pmv-legacy-agents-');
  cache = path.join(home.root, 'cache');
  warnings = [];
  repo = await home.repo('webapp');
  // The parent session's own log never names the plans (its subagent planned), and other sessions exist.
  await home.session(repo, PARENT, [null]);
  await home.plan('old-subagent-plan.md', '# Written by a subagent\n');
  await home.plan(`old-subagent-plan-agent-${AGENT_ID}.md`, '# The subagent-named copy\n');
  await home.plan('grown-plan.md', '# Named later\n');
});

afterEach(async () => {
  await home.cleanup();
});

const projectDir = (cwd: string): string => path.join(home.claude, 'projects', encodeCwd(cwd));
const agentLog = (cwd: string, id: string): string => path.join(projectDir(cwd), `agent-${id}.jsonl`);

function open(options: { cacheDir?: string | null; watch?: boolean } = {}): Promise<Viewer> {
  return Viewer.open({
    claudeDir: home.claude, homeDir: home.root, logger: { warn: (m) => warnings.push(m) },
    watch: options.watch ?? false, cacheDir: options.cacheDir ?? null,
  });
}

function linkOf(viewer: Viewer, filename: string): { sessionId: string | null; project: string | null } | null {
  const plan = viewer.plans.find(filename);
  return plan ? { sessionId: plan.sessionId, project: plan.project } : null;
}

const LINKED = { sessionId: PARENT, project: 'webapp' };

describe('subagent logs beside the sessions (Claude Code before 2.1.2)', () => {
  it('link their plans to the parent session and its project at start', async () => {
    await home.write(agentLog(repo, AGENT_ID), legacyAgentLine(PARENT, repo, 'old-subagent-plan', AGENT_ID));
    // A project whose folder holds nothing but such a log.
    const lonely = await home.repo('lonely');
    await home.plan('lonely-plan.md', '# Lonely\n');
    await home.write(agentLog(lonely, '0f1e2d3c'), legacyAgentLine(uuid(2), lonely, 'lonely-plan', '0f1e2d3c'));
    const viewer = await open();
    expect(linkOf(viewer, 'old-subagent-plan.md')).toEqual(LINKED);
    expect(linkOf(viewer, `old-subagent-plan-agent-${AGENT_ID}.md`)).toEqual(LINKED);
    expect(linkOf(viewer, 'lonely-plan.md')).toEqual({ sessionId: uuid(2), project: 'lonely' });
    expect(viewer.sessions.projectFolders().find((f) => f.key === encodeCwd(lonely))?.cwd).toBe(lonely);
    await viewer.close();
    expect(warnings).toEqual([]);
  });

  it('link their plans when the first scan runs in the worker threads', async () => {
    for (let i = 0; i < WORKER_MIN_FOLDERS; i++) await home.session(`/work/other-${i}`, uuid(100 + i), [`other-plan-${i}`]);
    await home.write(agentLog(repo, AGENT_ID), legacyAgentLine(PARENT, repo, 'old-subagent-plan', AGENT_ID));
    expect(refreshesInWorkers(path.join(home.claude, 'projects'))).toBe(true);
    const viewer = await open();
    expect(linkOf(viewer, 'old-subagent-plan.md')).toEqual(LINKED);
    expect(linkOf(viewer, `old-subagent-plan-agent-${AGENT_ID}.md`)).toEqual(LINKED);
    await viewer.close();
    expect(warnings).toEqual([]);
  });

  it('are kept in the persisted index: a restart reads only what was appended to them since', async () => {
    const log = await home.write(agentLog(repo, AGENT_ID), legacyAgentLine(PARENT, repo, 'old-subagent-plan', AGENT_ID));
    await (await open({ cacheDir: cache })).close();
    const appended = legacyAgentLine(PARENT, repo, 'grown-plan', AGENT_ID);
    await appendFile(log, appended);
    const restarted = await open({ cacheDir: cache });
    expect(linkOf(restarted, 'old-subagent-plan.md')).toEqual(LINKED);
    expect(linkOf(restarted, 'grown-plan.md')).toEqual(LINKED);
    // The appended line, and the newline before it (which shows the file was not rewritten).
    expect(restarted.sessions.scanStats().bytesRead).toBe(1 + Buffer.byteLength(appended));
    await restarted.close();
    expect(warnings).toEqual([]);
  });

  it('are found after an upgrade although the index saved by the previous version never listed them', async () => {
    // Directories last changed a minute ago: their stamps are settled, so a restart may trust the listings
    // the saved index holds instead of listing them again (see SETTLED_MS in logFiles.ts).
    const projects = path.join(home.claude, 'projects');
    const past = new Date(Date.now() - 60_000);
    const settle = async (): Promise<void> => {
      for (const entry of await readdir(projects, { recursive: true, withFileTypes: true })) {
        if (entry.isDirectory()) await utimes(path.join(entry.parentPath, entry.name), past, past);
      }
      await utimes(projects, past, past);
    };
    await settle();
    await (await open({ cacheDir: cache })).close();
    // The old subagent log was there all along; the previous version did not count it as a log, so its
    // index does not list it, and the folder's stamp is the one it saved.
    await home.write(agentLog(repo, AGENT_ID), legacyAgentLine(PARENT, repo, 'old-subagent-plan', AGENT_ID));
    await settle();
    const file = new SessionIndexCache(cache, projects).file;
    const saved = await readIndexCache(file);
    expect(saved.index.files.some((v) => typeof v === 'string' && v.includes('agent-'))).toBe(false);
    // Written by the previous build, whose rules did not count these logs (see src/domain/derivation.ts).
    await writeIndexCache(file, { ...saved, header: { derivation: DERIVATION_VERSION - 1 } });

    const upgraded = await open({ cacheDir: cache });
    expect(linkOf(upgraded, 'old-subagent-plan.md')).toEqual(LINKED);
    await upgraded.close();
    // Rebuilt without a word: what older rules derived is not an error.
    expect(warnings).toEqual([]);
  });

  it('are picked up by the watchers when they appear and when they grow while the viewer runs', async () => {
    const viewer = await open({ watch: true });
    try {
      await viewer.watching;
      expect(linkOf(viewer, 'old-subagent-plan.md')).toEqual({ sessionId: null, project: null });
      const log = await home.write(agentLog(repo, AGENT_ID), legacyAgentLine(PARENT, repo, 'old-subagent-plan', AGENT_ID));
      expect(await eventually(() => linkOf(viewer, 'old-subagent-plan.md')?.sessionId === PARENT, 15_000)).toBe(true);
      expect(linkOf(viewer, 'old-subagent-plan.md')).toEqual(LINKED);
      expect(linkOf(viewer, `old-subagent-plan-agent-${AGENT_ID}.md`)).toEqual(LINKED);

      await appendFile(log, legacyAgentLine(PARENT, repo, 'grown-plan', AGENT_ID));
      expect(await eventually(() => linkOf(viewer, 'grown-plan.md')?.sessionId === PARENT, 15_000)).toBe(true);
      expect(linkOf(viewer, 'grown-plan.md')).toEqual(LINKED);

      // A project folder first seen with nothing but such a log in it.
      const late = await home.repo('late');
      await home.plan('late-plan.md', '# Late\n');
      await home.write(agentLog(late, '11aa22bb'), `${conversationLine(late, uuid(3), null)}\n${legacyAgentLine(uuid(3), late, 'late-plan', '11aa22bb')}`);
      expect(await eventually(() => linkOf(viewer, 'late-plan.md')?.project === 'late', 15_000)).toBe(true);
      expect(linkOf(viewer, 'late-plan.md')).toEqual({ sessionId: uuid(3), project: 'late' });
    } finally {
      await viewer.close();
    }
    expect(warnings).toEqual([]);
  });
});
