// Who is in the home before anything is written: the projects, the plans (base, orphaned, subagent) and
// the sessions that link plans to projects.

import type { HomeParams } from './facts.js';
import { FAKE_ROOT, encodeProjectDir } from './home-layout.js';
import type { Rng } from './rng.js';
import { ADJ, GERUND, NOUN, PKG, PROJ_A, PROJ_B, THING, VERB, titleCase } from './vocabulary.js';

export interface PlanSpec {
  stem: string;
  title: string;
  session: SessionSpec | null;
  parent: PlanSpec | null;
  agentId: string | null;
  children: number;
}

export interface SessionSpec {
  sessionId: string;
  project: number;
  cwd: string;
  plan: PlanSpec | null;
  agentIds: string[];
  budget: number;
}

export interface HomeShape {
  /** Each project's root folder, by project index. */
  projectCwd: string[];
  base: PlanSpec[];
  agents: PlanSpec[];
  sessions: SessionSpec[];
}

export function shapeHome(rng: Rng, p: Required<HomeParams>): HomeShape {
  const projectCwd = projectRoots(rng, p.projects);

  // Plans: base plans (slugs), some orphaned; subagent plans hang off base plans.
  const agentCount = Math.round(p.plans * p.agentShare);
  const baseCount = p.plans - agentCount;
  const stems = new Set<string>();
  const base = basePlans(rng, baseCount, stems);
  const orphanCount = Math.min(baseCount, Math.max(16, Math.round(baseCount * p.orphanShare)));
  const order = rng.shuffle(base.map((_, i) => i));
  const orphanSet = new Set(order.slice(0, orphanCount));
  const sessions = linkSessions(rng, p.projects, projectCwd, base.filter((_, i) => !orphanSet.has(i)));
  const agents = agentPlans(rng, base, agentCount, stems);
  return { projectCwd, base, agents, sessions };
}

/** Projects: unique encoded folder names; some names carry '.' or '_' (the encoding is lossy). */
function projectRoots(rng: Rng, projects: number): string[] {
  const projectNames: string[] = [];
  const seenEnc = new Set<string>();
  for (let i = 0; projectNames.length < projects; i++) {
    let name = `${rng.pick(PROJ_A)}-${rng.pick(PROJ_B)}`;
    if (i >= PROJ_A.length * PROJ_B.length / 2) name += `-${i}`;
    const style = rng.next();
    if (style < 0.08) name = name.replace('-', '_');
    else if (style < 0.14) name = name.replace('-', '.');
    const enc = encodeProjectDir(name);
    if (seenEnc.has(enc)) continue;
    seenEnc.add(enc);
    projectNames.push(name);
  }
  return projectNames.map((n) => `${FAKE_ROOT}/${n}`);
}

function basePlans(rng: Rng, baseCount: number, stems: Set<string>): PlanSpec[] {
  const base: PlanSpec[] = [];
  while (base.length < baseCount) {
    let stem: string;
    let title: string;
    if (rng.chance(0.5)) {
      stem = `${rng.pick(ADJ)}-${rng.pick(GERUND)}-${rng.pick(NOUN)}`;
      title = `${titleCase(rng.pick(VERB))} ${titleCase(rng.pick(THING))}`;
    } else {
      const verb = rng.pick(VERB);
      const thing = rng.pick(THING);
      const extra = rng.chance(0.4) ? `-${rng.pick(['for', 'in', 'with'])}-${rng.pick(THING)}` : '';
      stem = `${verb}-the-${thing}${extra}-${rng.pick(ADJ)}-${rng.pick(NOUN)}`;
      title = `${titleCase(verb)} the ${titleCase(thing)}${extra ? titleCase(extra).replace(/^ /, ' ') : ''}`;
    }
    if (stems.has(stem) || stem.length > 70) continue;
    stems.add(stem);
    base.push({ stem, title, session: null, parent: null, agentId: null, children: 0 });
  }
  return base;
}

/** Sessions: one per linked plan, plus sessions that never entered plan mode (enough to cover every project). */
function linkSessions(rng: Rng, projects: number, projectCwd: string[], linked: PlanSpec[]): SessionSpec[] {
  const extra = Math.max(3, Math.round(linked.length * 0.3), projects - linked.length);
  const sessions: SessionSpec[] = [];
  for (const plan of linked) sessions.push({ sessionId: '', project: 0, cwd: '', plan, agentIds: [], budget: 0 });
  for (let i = 0; i < extra; i++) sessions.push({ sessionId: '', project: 0, cwd: '', plan: null, agentIds: [], budget: 0 });
  rng.shuffle(sessions);
  sessions.forEach((s, i) => {
    s.sessionId = rng.uuid();
    if (i < projects) {
      s.project = i; // every project gets a session at its root (its memory key and cwd are known)
      s.cwd = projectCwd[i] as string;
    } else {
      s.project = Math.floor(projects * rng.next() ** 2);
      s.cwd = projectCwd[s.project] as string;
      if (rng.chance(0.05)) s.cwd += `/packages/${rng.pick(PKG)}`; // launched in a subfolder
    }
    if (s.plan) s.plan.session = s;
    if (rng.chance(0.12)) for (let k = rng.int(1, 3); k > 0; k--) s.agentIds.push('a' + rng.hex(16));
  });
  return sessions;
}

/** Subagent plans. */
function agentPlans(rng: Rng, base: PlanSpec[], agentCount: number, stems: Set<string>): PlanSpec[] {
  const agents: PlanSpec[] = [];
  for (let attempts = 0; agents.length < agentCount && base.length > 0 && attempts < agentCount * 20; attempts++) {
    const parent = rng.pick(base);
    let agentId = 'a' + rng.hex(16);
    if (parent.session) {
      if (parent.session.agentIds.length === 0) parent.session.agentIds.push(agentId);
      agentId = rng.pick(parent.session.agentIds);
    }
    const stem = `${parent.stem}-agent-${agentId}`;
    if (stems.has(stem)) continue;
    stems.add(stem);
    parent.children++;
    agents.push({ stem, title: `${parent.title} (research)`, session: parent.session, parent, agentId, children: 0 });
  }
  return agents;
}
