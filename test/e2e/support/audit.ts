import axe from 'axe-core';
import type { E2EFrame } from './driver';

/**
 * The serious and critical accessibility violations axe-core finds on a page (open shadow
 * roots included) or in a frame's document, or in the element `include` names. axe-core is put into the page as a
 * script of the test's own, which no content security policy of the page stops.
 */
export async function seriousViolations(page: E2EFrame, include?: string) {
  // Once per document: putting its 550 kB in took about 0.27 s each time, more than the audit itself.
  if (!(await page.evaluate<boolean>("'axe' in globalThis"))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async ({ include }) => {
      const { violations } = await (globalThis as unknown as { axe: typeof axe }).axe.run(include ?? document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        // A frame of the extension answers no script of the page's: its document is audited on its own.
        iframes: false,
      });
      return violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    { include },
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ impact: _, ...violation }) => violation);
}
