import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Facts, HomeParams } from '../../bench/facts.js';
import { generateHome, parseBytes } from '../../bench/generate-home.js';
import { SESSION_FILE, SLUG, encodeProjectDir } from '../../bench/home-layout.js';

const params: HomeParams = {
  plans: 40, projects: 5, logBytes: 4 * 1024 * 1024, hugeShare: 0.2, memorySources: 2, topics: 4, seed: 7,
};

let root: string;
let homeA: string;
let homeB: string;
let facts: Facts;
let factsB: Facts;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out.sort();
}

const CONVERSATION = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);
const TAIL = /"userType":"external","entrypoint":"cli","cwd":"[^"]+","sessionId":"[0-9a-f-]{36}","version":"2\.1\.329","gitBranch":"main"(,"slug":"[a-z0-9-]+")?\}$/;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pmv-gen-test-'));
  homeA = path.join(root, 'a');
  homeB = path.join(root, 'b');
  facts = await generateHome(homeA, params);
  factsB = await generateHome(homeB, params);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('generateHome', () => {
  it('is deterministic for a seed', () => {
    expect(factsB).toEqual(facts);
    const rel = (home: string): string[] => walk(home).map((f) => path.relative(home, f));
    expect(rel(homeB)).toEqual(rel(homeA));
    for (const f of rel(homeA).filter((x) => x.endsWith('.md'))) {
      expect(fs.readFileSync(path.join(homeB, f)).equals(fs.readFileSync(path.join(homeA, f)))).toBe(true);
    }
  });

  it('honours the requested counts and volume', () => {
    expect(facts.counts.plans).toBe(params.plans);
    expect(Object.keys(facts.plans)).toHaveLength(params.plans);
    expect(facts.counts.linkedPlans + facts.counts.orphanPlans).toBe(params.plans);
    expect(facts.counts.orphanPlans).toBeGreaterThan(0);
    expect(facts.counts.agentPlans).toBeGreaterThan(0);
    expect(facts.counts.logBytes).toBeGreaterThanOrEqual(params.logBytes * 0.95);
    expect(facts.counts.logBytes).toBeLessThanOrEqual(params.logBytes * 1.1);
    expect(facts.counts.hugeLines).toBeGreaterThan(0);
    expect(facts.orphanSlugs.length).toBeGreaterThanOrEqual(11);
  });

  it('writes plans named by the slug grammar, matching the facts', () => {
    const names = fs.readdirSync(path.join(homeA, 'plans')).sort();
    expect(names).toEqual(Object.keys(facts.plans).sort());
    for (const name of names) {
      const stem = name.slice(0, -3);
      expect(name.endsWith('.md')).toBe(true);
      expect(stem).toMatch(SLUG);
      expect(stem.length).toBeLessThanOrEqual(100);
    }
    expect(names.some((n) => /-agent-a[0-9a-f]{16}\.md$/.test(n))).toBe(true);
    expect(names.some((n) => fs.readFileSync(path.join(homeA, 'plans', n), 'utf8').startsWith('# Plan: '))).toBe(true);
  });

  it('writes session logs in the documented format, consistent with the facts', () => {
    const logs = walk(path.join(homeA, 'projects')).filter((f) => f.endsWith('.jsonl'));
    let bytes = 0;
    let torn = 0;
    const bySlug = new Map<string, { sessionId: string; project: string }>();
    for (const file of logs) {
      const rel = path.relative(path.join(homeA, 'projects'), file).split(path.sep);
      const isSub = rel.length === 4;
      if (isSub) {
        expect(rel[1]).toMatch(/^[0-9a-f-]{36}$/);
        expect(rel[2]).toBe('subagents');
        expect(rel[3]).toMatch(/^agent-a[0-9a-f]{16}\.jsonl$/);
      } else {
        expect(rel).toHaveLength(2);
        expect(rel[1]).toMatch(SESSION_FILE);
      }
      const buf = fs.readFileSync(file);
      bytes += buf.length;
      expect(buf[buf.length - 1]).toBe(0x0a);
      for (const line of buf.toString('utf8').split('\n')) {
        if (line === '') continue;
        let obj: Record<string, unknown>;
        try {
          obj = JSON.parse(line) as Record<string, unknown>;
        } catch {
          torn++;
          continue;
        }
        if (CONVERSATION.has(obj.type as string)) {
          expect(line).toMatch(TAIL);
          expect(encodeProjectDir(obj.cwd as string)).toBe(rel[0]);
          if (isSub) expect(obj.sessionId).toBe(rel[1]);
          else expect(`${obj.sessionId as string}.jsonl`).toBe(rel[1]);
          if (typeof obj.slug === 'string') {
            bySlug.set(obj.slug, { sessionId: obj.sessionId as string, project: path.posix.basename(obj.cwd as string) });
          }
        } else {
          expect(obj).not.toHaveProperty('cwd');
          expect(obj).not.toHaveProperty('slug');
        }
      }
    }
    expect(bytes).toBe(facts.counts.logBytes);
    expect(torn).toBe(facts.counts.tornLines);
    expect(logs).toHaveLength(facts.sessions.length);
    for (const s of facts.sessions) expect(fs.statSync(path.join(homeA, s.file)).size).toBe(s.bytes);
    // Each plan's facts follow from the logs: its slug (or its parent's, for -agent- plans) → session → cwd.
    for (const [filename, want] of Object.entries(facts.plans)) {
      const stem = filename.slice(0, -3).replace(/-agent-a[0-9a-f]{16}$/, '');
      const got = bySlug.get(stem) ?? { sessionId: null, project: null };
      expect({ filename, ...got }).toEqual({ filename, ...want });
    }
  });

  it("writes each plan's story as tool calls whose replay gives the history facts", () => {
    // Replays the logs as Claude Code applied the calls: a Write sets the text, an Edit or MultiEdit changes
    // it (an old text not found is refused: the story is unknown until the next Write), and counts the
    // answers to ExitPlanMode. Independent of how the generator made the story.
    const plansDir = path.join(homeA, 'plans');
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
    type Replay = { versions: { source: string; text: string; gapBefore: boolean }[]; text: string | null; gap: boolean };
    const replays = new Map<string, Replay>();
    const exits = new Map<string, { sessionId: string; result: string | null }>();
    let refused = 0;
    const edit = (text: string, e: { old_string: string; new_string: string; replace_all?: boolean }): string | null => {
      if (!text.includes(e.old_string)) return null;
      if (e.replace_all) return text.split(e.old_string).join(e.new_string);
      expect(text.indexOf(e.old_string, text.indexOf(e.old_string) + 1)).toBe(-1); // unique, as Edit requires
      return text.replace(e.old_string, () => e.new_string);
    };
    for (const file of walk(path.join(homeA, 'projects')).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        let obj: { type?: string; sessionId?: string; message?: { content?: unknown } };
        try {
          obj = JSON.parse(line) as typeof obj;
        } catch {
          continue;
        }
        const content = Array.isArray(obj.message?.content) ? (obj.message.content as Record<string, unknown>[]) : [];
        for (const item of content) {
          if (item.type === 'tool_result' && exits.has(item.tool_use_id as string)) {
            exits.get(item.tool_use_id as string)!.result = item.is_error === true ? 'rejected' : 'approved';
          }
          if (item.type === 'tool_result' && item.is_error === true && String(item.content).includes('String to replace not found')) refused++;
          if (item.type !== 'tool_use') continue;
          expect(line).toContain(`"name":"${item.name as string}"`);
          if (item.name === 'ExitPlanMode') exits.set(item.id as string, { sessionId: obj.sessionId!, result: null });
          const input = item.input as { file_path?: string; content?: string; old_string?: string; new_string?: string; edits?: [] };
          if (!['Write', 'Edit', 'MultiEdit'].includes(item.name as string) || path.dirname(input.file_path ?? '') !== plansDir) continue;
          const name = path.basename(input.file_path!);
          const r = replays.get(name) ?? { versions: [], text: null, gap: false };
          replays.set(name, r);
          let next: string | null = null;
          if (item.name === 'Write') next = input.content!;
          else if (r.text !== null && item.name === 'Edit') next = edit(r.text, input as { old_string: string; new_string: string });
          else if (r.text !== null) next = input.edits!.reduce<string | null>((text, e) => (text === null ? null : edit(text, e)), r.text);
          if (next === null) {
            r.gap = true;
            r.text = null;
            continue;
          }
          r.versions.push({ source: item.name === 'Write' ? 'w' : 'e', text: next, gapBefore: r.gap });
          r.text = next;
          r.gap = false;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect([...replays.keys()].filter((n) => !(n in facts.plans)).sort()).toEqual(Object.keys(facts.archived).sort());
    const written = [...replays.keys()].filter((n) => n in facts.plans);
    expect(written.length).toBeGreaterThan(params.plans / 2);
    expect(written.some((n) => n.includes('-agent-'))).toBe(true);
    for (const [filename, want] of [...Object.entries(facts.history), ...Object.entries(facts.archived)]) {
      const r = replays.get(filename) ?? { versions: [], text: null, gap: false };
      const disk = filename in facts.plans ? fs.readFileSync(path.join(plansDir, filename), 'utf8') : null;
      const versions = [...r.versions];
      if (disk !== null && !versions.some((v) => v.text === disk)) versions.push({ source: 'd', text: disk, gapBefore: r.gap });
      const gapAt = versions.findIndex((v) => v.gapBefore);
      expect({ filename, sources: want.sources, shas: want.shas, gapAt: want.gapAt }).toEqual({
        filename, sources: versions.map((v) => v.source).join(''), shas: versions.map((v) => sha(v.text)), gapAt: gapAt === -1 ? null : gapAt,
      });
    }
    const sources = Object.values(facts.history).map((h) => h.sources);
    expect(sources.some((x) => x.includes('e') && x.endsWith('d'))).toBe(true); // changed outside Claude Code
    expect(Object.values(facts.history).some((h) => h.gapAt !== null)).toBe(true);
    // Every ExitPlanMode was answered, and each base plan's facts count its session's answers.
    expect([...exits.values()].every((e) => e.result !== null)).toBe(true);
    for (const [filename, want] of Object.entries(facts.history)) {
      const sessionId = facts.plans[filename]?.sessionId;
      if (want.events === null || !sessionId) continue;
      const answers = [...exits.values()].filter((e) => e.sessionId === sessionId);
      expect({ filename, approved: want.events.approved, rejected: want.events.rejected }).toEqual({
        filename, approved: answers.filter((e) => e.result === 'approved').length, rejected: answers.filter((e) => e.result === 'rejected').length,
      });
    }
  });

  it('writes the work done after an approved plan: todos, edits with sidecars, a failing then passing test run, a commit', () => {
    let checked = 0;
    for (const [filename, want] of Object.entries(facts.history)) {
      const plan = facts.plans[filename];
      if (want.events?.exited !== 1 || !plan?.sessionId) continue;
      const log = walk(path.join(homeA, 'projects')).find((f) => f.endsWith(`${plan.sessionId}.jsonl`))!;
      const lines = fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      });
      const exit = lines.findIndex((l) => (l.attachment as { type?: string } | undefined)?.type === 'plan_mode_exit');
      expect(exit).toBeGreaterThan(0);
      const after = lines.slice(exit + 1);
      const uses = after.flatMap((l) => ((l.message as { content?: unknown })?.content instanceof Array ? (l.message as { content: Record<string, unknown>[] }).content : []))
        .filter((c) => c.type === 'tool_use') as { name: string; input: Record<string, unknown> }[];
      expect(uses.filter((u) => u.name === 'TodoWrite').length).toBeGreaterThanOrEqual(2);
      expect(uses.filter((u) => u.name === 'Edit').length).toBeGreaterThanOrEqual(2);
      expect(uses.filter((u) => u.name === 'Bash' && u.input.command === 'npm test')).toHaveLength(2);
      expect(uses.some((u) => u.name === 'Bash' && String(u.input.command).includes('git commit -m'))).toBe(true);
      expect(after.some((l) => (l.toolUseResult as { structuredPatch?: unknown } | undefined)?.structuredPatch !== undefined)).toBe(true);
      expect(after.some((l) => l.type === 'system' && l.subtype === 'turn_duration')).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('reports exact search hits', () => {
    const plansDir = path.join(homeA, 'plans');
    const texts = new Map(fs.readdirSync(plansDir).map((n) => [n, fs.readFileSync(path.join(plansDir, n), 'utf8').toLowerCase()]));
    const rare = [...texts].filter(([, t]) => t.includes(facts.rare.word)).map(([n]) => n).sort();
    expect(rare.length).toBeGreaterThan(0);
    expect(rare).toEqual(facts.rare.filenames);
    expect([...texts.values()].filter((t) => t.includes(facts.common.word)).length).toBe(facts.common.count);
    const memIds: string[] = [];
    for (const f of walk(path.join(homeA, 'projects')).filter((x) => x.includes(`${path.sep}memory${path.sep}`))) {
      const rel = path.relative(path.join(homeA, 'projects'), f).split(path.sep);
      if (fs.readFileSync(f, 'utf8').toLowerCase().includes(facts.memory.word)) {
        memIds.push(`${rel[0]}/${rel.slice(2).join('/')}`);
      }
    }
    expect(memIds.length).toBeGreaterThan(0);
    expect(memIds.sort()).toEqual(facts.memory.ids);
  });

  it('writes memory with MEMORY.md and newest-form frontmatter topics', () => {
    const dirs = fs.readdirSync(path.join(homeA, 'projects')).filter((d) => fs.existsSync(path.join(homeA, 'projects', d, 'memory')));
    expect(dirs).toHaveLength(params.memorySources);
    let entries = 0;
    for (const d of dirs) {
      const files = walk(path.join(homeA, 'projects', d, 'memory'));
      entries += files.length;
      expect(files.map((f) => path.basename(f))).toContain('MEMORY.md');
      for (const f of files.filter((x) => path.basename(x) !== 'MEMORY.md')) {
        expect(fs.readFileSync(f, 'utf8')).toMatch(
          /^---\nname: [a-z0-9-]+\ndescription: ".*"\nmetadata:\n {2}node_type: memory\n {2}type: (user|feedback|project|reference)\n {2}originSessionId: [0-9a-f-]{36}\n {2}modified: \d{4}-\d\d-\d\dT[\d:.]+Z\n---\n/,
        );
      }
    }
    expect(entries).toBe(facts.memory.entries);
  });
});

describe('helpers', () => {
  it('encodes folder names like Claude Code', () => {
    expect(encodeProjectDir('/home/u/.config')).toBe('-home-u--config');
    expect(encodeProjectDir('C:\\Users\\c\\p')).toBe('C--Users-c-p');
  });

  it('parses sizes', () => {
    expect(parseBytes('2GB')).toBe(2 * 1024 ** 3);
    expect(parseBytes('100MB')).toBe(100 * 1024 ** 2);
    expect(parseBytes('512')).toBe(512);
  });
});
