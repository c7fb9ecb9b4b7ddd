// The plan list (GET /api/plans): parse it, verify it against the home's facts, and poll it until it shows
// what a measure waits for.

import type { Facts } from './facts.js';
import type { Client, HttpResult } from './measure.js';

export type PlanMap = Map<string, { project: string | null; sessionId: string | null }>;

export function parsePlans(body: Buffer): PlanMap | null {
  try {
    const doc = JSON.parse(body.toString('utf8')) as { plans?: unknown };
    if (!Array.isArray(doc.plans)) return null;
    const map: PlanMap = new Map();
    for (const p of doc.plans as { filename: string; project: string | null; sessionId: string | null }[]) {
      map.set(p.filename, { project: p.project ?? null, sessionId: p.sessionId ?? null });
    }
    return map;
  } catch {
    return null;
  }
}

export interface Verdict {
  ok: boolean;
  listed: number;
  missing: number;
  wrong: number;
  extra: number;
  examples: string[];
}

export function verify(map: PlanMap, facts: Facts): Verdict {
  const v: Verdict = { ok: false, listed: map.size, missing: 0, wrong: 0, extra: 0, examples: [] };
  for (const [filename, want] of Object.entries(facts.plans)) {
    const got = map.get(filename);
    if (!got) {
      v.missing++;
      if (v.examples.length < 5) v.examples.push(`missing ${filename}`);
    } else if (got.project !== want.project || got.sessionId !== want.sessionId) {
      v.wrong++;
      if (v.examples.length < 5) {
        v.examples.push(`${filename}: got ${got.project}/${got.sessionId}, want ${want.project}/${want.sessionId}`);
      }
    }
  }
  for (const filename of map.keys()) if (!(filename in facts.plans)) v.extra++;
  v.ok = v.missing === 0 && v.wrong === 0 && v.extra === 0;
  return v;
}

/** Polls GET /api/plans, using If-None-Match when the server sends an ETag. */
export class PlansPoller {
  private etag: string | null = null;
  private map: PlanMap | null = null;
  constructor(private readonly client: Client) {}

  async poll(): Promise<{ map: PlanMap | null; res: HttpResult; endedAt: number }> {
    const headers: Record<string, string> = this.etag ? { 'if-none-match': this.etag } : {};
    const res = await this.client.get('/api/plans', headers);
    const endedAt = res.endedAt;
    if (res.status === 200) {
      this.map = parsePlans(res.body);
      const etag = res.headers.etag;
      this.etag = typeof etag === 'string' ? etag : null;
    } else if (res.status !== 304) {
      this.map = null;
    }
    return { map: this.map, res, endedAt };
  }

  /** Polls until `pred` holds; returns the ms from `t0` to the end of the first response satisfying it. */
  async until(t0: number, pred: (m: PlanMap) => boolean, timeoutMs = 15_000): Promise<number | null> {
    while (performance.now() - t0 < timeoutMs) {
      const { map, endedAt } = await this.poll();
      if (map && pred(map)) return endedAt - t0;
    }
    return null;
  }
}
