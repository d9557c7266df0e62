import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's `chromium` package (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True (skip) when no Chromium is installed, with a one-line warning, as the
 * server-only tests do without their servers. In CI a missing browser is a failure,
 * never a skip: `.ci/run` installs it.
 */
export function missingChromium(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return false;
  if (process.env.CI)
    throw new Error(`"${suite}" needs Chromium at ${CHROMIUM_PATH}; .ci/run installs Debian's chromium package`);
  process.stderr.write(
    `[tessera] skipping "${suite}": needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium), none found\n`,
  );
  return true;
}

/**
 * Headless Chromium with a fresh profile. The flags keep it off the network: this
 * machine's network is closed, and without them Chromium keeps trying to reach
 * Google's hosts (background networking, component updates, sync, QUIC).
 */
export async function launchHeadlessChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'tessera-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 900, height: 1100 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
