// Mermaid diagrams of every kind a plan holds, drawn under the page's own policy (style-src 'self', no
// 'unsafe-inline'), in both themes and expanded: the page reports no CSP violation at any point.
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useTestEnv } from './helpers/setup.js';

const DIAGRAMS: Record<string, string> = {
  flowchart: 'flowchart LR\n  A[Start] --> B{Ready?}\n  B -- yes --> C[Ship]\n  B -- no --> D[Fix]\n  classDef hot fill:#f96,stroke:#333\n  class C hot\n  style D fill:#bbf,stroke:#f66,stroke-width:2px',
  sequence: 'sequenceDiagram\n  participant U as User\n  participant S as Server\n  U->>S: GET /api/plans\n  S-->>U: 200\n  Note over U,S: cached for 5 s\n  rect rgb(200, 220, 255)\n  U->>S: again\n  end',
  classes: 'classDiagram\n  class Viewer {\n    +open()\n    -scan()\n  }\n  Viewer --> SessionIndex',
  state: 'stateDiagram-v2\n  [*] --> Idle\n  Idle --> Reading: change\n  Reading --> Idle',
  er: 'erDiagram\n  PLAN ||--o{ VERSION : has\n  PLAN { string filename }',
  gantt: 'gantt\n  title Release\n  dateFormat YYYY-MM-DD\n  section Build\n  Reader :a1, 2026-11-01, 3d\n  Tests :after a1, 2d',
  pie: 'pie title Share\n  "plans" : 40\n  "memory" : 60',
  journey: 'journey\n  title Day\n  section Work\n    Plan: 5: Me\n    Review: 3: Me',
  mindmap: 'mindmap\n  root((Viewer))\n    Plans\n    Memory',
  timeline: 'timeline\n  title History\n  2026-11 : Reader\n  2026-12 : Outcome',
  git: 'gitGraph\n  commit\n  branch reader\n  commit\n  checkout main\n  merge reader',
  quadrant: 'quadrantChart\n  title Effort\n  quadrant-1 Do\n  A: [0.3, 0.6]',
};

const env = useTestEnv({
  async extend(fx) {
    const text = ['# Every diagram', '', ...Object.entries(DIAGRAMS).flatMap(([name, code]) => [`## ${name}`, '', '```mermaid', code, '```', ''])].join('\n');
    await writeFile(path.join(fx.plansDir, 'every-diagram-quiet-owl.md'), text);
  },
});

describe('mermaid under the page\'s CSP', () => {
  it('draws every kind of diagram, in both themes and expanded, with no CSP violation', async () => {
    const { page, context } = await env.open();
    await context.addInitScript(() => {
      const list: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = list;
      document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.effectiveDirective} ${e.sample} ${e.sourceFile}:${e.lineNumber}`));
    });
    const response = await page.goto(`${env.server.url}?plan=every-diagram-quiet-owl.md`);
    expect(response!.headers()['content-security-policy']).toContain("style-src 'self'");
    const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    await page.locator('.markdown-body h1').waitFor();
    const count = Object.keys(DIAGRAMS).length;
    for (let i = 0; i < count; i++) {
      await page.locator('.mermaid-block').nth(i).scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => {
        const d = document.querySelectorAll('.mermaid-diagram')[n];
        return d !== undefined && ['ready', 'error'].includes(d.getAttribute('data-status') ?? '');
      }, i);
    }
    expect(await page.locator('.mermaid-diagram[data-status="ready"]').count()).toBeGreaterThanOrEqual(count - 2);
    expect(await violations()).toEqual([]);
    await page.getByRole('button', { name: /^Theme:/ }).click();
    await page.waitForTimeout(0);
    for (let i = 0; i < count; i++) await page.locator('.mermaid-block').nth(i).scrollIntoViewIfNeeded();
    await page.locator('.mermaid-diagram').first().getByRole('button', { name: 'Expand diagram' }).click();
    await page.keyboard.press('Escape');
    expect(await violations()).toEqual([]);
  }, 120_000);
});
