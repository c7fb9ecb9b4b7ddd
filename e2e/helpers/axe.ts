// axe-core run inside the page under test. Its source is read from node_modules and evaluated through
// the DevTools protocol, which the page's CSP does not govern: no <script> is added, nothing is fetched
// from elsewhere, and axe never enters the product's bundle.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  /** One line per offending element: its selector and axe's summary of what fails. */
  nodes: string[];
}

/** The serious and critical WCAG 2.x A/AA violations on the page as it is now. */
export async function axeViolations(page: Page, options: { include?: string } = {}): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (include) => {
    interface AxeNode { target: unknown[]; failureSummary?: string }
    interface AxeResult { id: string; impact: string | null; help: string; nodes: AxeNode[] }
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult[] }> } }).axe;
    const result = await axe.run(include ?? document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => `${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
      }));
  }, options.include);
}

/** A readable list for a failing expectation. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings.map((f) => `${f.id} (${f.impact}): ${f.help}\n  ${f.nodes.slice(0, 6).join('\n  ')}`).join('\n');
}

/**
 * No serious or critical violation on this screen. Soft: a failing screen does not hide the ones after
 * it, so one run lists every finding.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const findings = await axeViolations(page);
  expect.soft(findings.map((f) => `${f.id} x${f.nodes.length}`), `axe on ${screen}:\n${describeFindings(findings)}`).toEqual([]);
}
