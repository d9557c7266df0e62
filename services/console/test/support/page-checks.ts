import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

/**
 * An axe-core scan of the page as it stands (WCAG 2.0/2.1 A and AA, and axe's best
 * practices): no serious or critical violation. axe is evaluated through the
 * DevTools protocol, so the page's own Content-Security-Policy stays in force.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations;
  });
  const serious = (violations as AxeViolation[]).filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map(
      (violation) =>
        `${name}: ${violation.id} (${violation.impact}) ${violation.help}: ${JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))}`,
    ),
  ).toEqual([]);
}

/** Scans the page and keeps its screenshot as test output. */
export async function checkPage(page: Page, outputDir: string, name: string): Promise<void> {
  await expectAccessible(page, name);
  await page.screenshot({ path: join(outputDir, `${name}.png`), fullPage: true });
}

/** Nothing wider than the screen: the page never scrolls sideways (tables scroll inside their own region). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The development sign-in, as a person fills it (the browser's cookies are cleared first: one person at a time). */
export async function signIn(
  page: Page,
  baseUrl: string,
  who: { sub: string; email: string; organisations?: string; platformAdmin?: boolean },
): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel(/^User id/).fill(who.sub);
  await page.getByLabel(/^E-mail address/).fill(who.email);
  await page.getByLabel(/^Organisations and roles/).fill(who.organisations ?? '');
  if (who.platformAdmin) await page.getByLabel('Platform administrator').check();
  await page.getByRole('button', { name: 'Sign in for development' }).click();
  await page.getByText(`Signed in as ${who.email}`).waitFor();
}

/** The page's flash after a form: the success sentence, or the refusal with its code. */
export async function flashText(page: Page): Promise<string> {
  return (await page.locator('.flash').first().textContent())?.replace(/\s+/g, ' ').trim() ?? '';
}
