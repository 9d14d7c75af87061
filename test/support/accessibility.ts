import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** What a failing check prints: enough to find the element and know what to change. */
export interface Violation {
  rule: string;
  impact: string;
  target: string;
  help: string;
  /** Where it was seen, when a test looks at the page in several windows (e.g. "dark 1024"). */
  where?: string[];
}

/**
 * The serious and critical axe-core violations on the page as it is now, one per element. axe-core runs inside the
 * page (its source evaluated there: there is no @axe-core/playwright here), so it sees the rendered DOM and the
 * computed colours of the theme the page was opened in.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated, not added as a <script>: the page's CSP (script-src 'self') rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => ({
        rule: violation.id,
        impact: violation.impact ?? '',
        target: node.target.join(' '),
        help: `${violation.help} (${violation.helpUrl})`,
      })),
    );
}

/** One line per violation, for a test's failure message. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) => `${v.impact} ${v.rule} at ${v.target}${v.where ? ` [${v.where.join(', ')}]` : ''}: ${v.help}`)
    .join('\n');
}
