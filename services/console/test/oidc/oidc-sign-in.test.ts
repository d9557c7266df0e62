import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecosystemService, startEcosystem } from '@tessera/ecosystem/server';
import type { RunningService } from '@tessera/service-kit';
import { freePort, silentLogger } from '@tessera/service-kit/testing';
import { launchHeadlessChromium, missingChromium } from '../../../../demo/test/support/headless-chromium.js';
import { loadConsoleConfig, startConsole } from '../../src/server.js';
import { expectAccessible, flashText } from '../support/page-checks.js';
import { startTestOidcProvider, type TestOidcProvider } from '../support/identity-provider.js';

const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
const SUITE = "signing in to the console with the platform's OpenID Connect provider (authorization code + PKCE)";
const AUDIENCE = 'tessera-api';
/** Short enough that the console renews the access token during the test (30 s before it expires). */
const ACCESS_TOKEN_SECONDS = 35;

/** A JWT anywhere: three base64url parts starting with an encoded JSON header. */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

// The console as production runs it (NODE_ENV=test, no development sign-in), an
// independent OIDC provider, and the ecosystem service trusting that provider's keys:
// a page the console renders with the user's token proves the token the provider
// issued reached the service and was accepted there.
describe.skipIf(missingChromium(SUITE))(SUITE, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-console-oidc-'));
  let provider: TestOidcProvider;
  let ecosystem: RunningService;
  let consoleService: RunningService;
  /** A second console replica with the same settings and secret. */
  let replica: RunningService;
  let consoleEnv: Record<string, string>;
  let browser: Awaited<ReturnType<typeof launchHeadlessChromium>>;
  let page: Page;
  let base: string;
  /** Every page, fragment and JSON answer of the console the browser received. */
  const bodies: Array<Promise<{ url: string; body: string }>> = [];

  beforeAll(async () => {
    const [providerPort, consolePort] = [await freePort(), await freePort()];
    base = `http://localhost:${consolePort}`;
    provider = await startTestOidcProvider({
      port: providerPort,
      consoleUrl: base,
      audience: AUDIENCE,
      orgRoles: { 'org-oidc': ['owner', 'admin'] },
      email: 'owner@oidc.example',
      accessTokenSeconds: ACCESS_TOKEN_SECONDS,
    });
    const oidc = { OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URI: `${provider.issuer}/jwks` };
    ecosystem = await startEcosystem(
      ecosystemService.loadConfig({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_ENABLED: 'false',
        ...oidc,
      }),
      silentLogger(),
    );
    consoleEnv = {
      NODE_ENV: 'test',
      PORT: String(consolePort),
      HOST: '127.0.0.1',
      METRICS_ENABLED: 'false',
      PUBLIC_BASE_URL: base,
      VERIFIER_URL: 'http://127.0.0.1:9',
      ECOSYSTEM_URL: ecosystem.url,
      STATUS_LIST_URL: 'http://127.0.0.1:9',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOW_HTTP: 'true',
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      LOG_LEVEL: 'warn',
    };
    consoleService = await startConsole(loadConsoleConfig(consoleEnv));
    replica = await startConsole(loadConsoleConfig({ ...consoleEnv, PORT: String(await freePort()) }), silentLogger());
    browser = await launchHeadlessChromium();
    browser.context.setDefaultTimeout(10_000);
    page = await browser.context.newPage();
    page.on('response', (response: Response) => {
      const type = response.headers()['content-type'] ?? '';
      if (!response.url().startsWith(base) || (response.status() >= 300 && response.status() < 400)) return;
      if (!/text\/html|application\/json/.test(type)) return;
      bodies.push(response.text().then((body) => ({ url: response.url(), body })));
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await consoleService?.close();
    await replica?.close();
    await ecosystem?.close();
    await provider?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('signs in at the provider and back; the session cookie is HttpOnly, Secure, SameSite=Lax and holds no token', async () => {
    await page.goto(`${base}/orgs/org-oidc/directory`);
    // Anonymous: the sign-in page, offering the provider and no development sign-in.
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.getByRole('button', { name: 'Sign in for development' }).count()).toBe(0);
    await expectAccessible(page, 'sign-in');
    await page.getByRole('link', { name: 'Sign in' }).click();

    // The provider's pages: the authorization request carries PKCE (S256), state and nonce.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByPlaceholder('Enter any login').fill('olivia');
    await page.getByPlaceholder('and password').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back where the person started, signed in.
    await page.waitForURL(`${base}/orgs/org-oidc/directory`);
    expect(await page.getByRole('banner').textContent()).toContain('owner@oidc.example');
    expect(provider.grants).toEqual(['authorization_code']);
    await page.screenshot({ path: join(OUTPUT_DIR, 'oidc-signed-in.png'), fullPage: true });

    const cookies = await browser.context.cookies(base);
    const session = cookies.find((cookie) => cookie.name === '__Host-tessera-session')!;
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(cookies.find((cookie) => cookie.name === '__Host-tessera-csrf')).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
    });
    for (const cookie of cookies) expect(cookie.value).not.toMatch(JWT);
    // Nothing a script can reach holds a token either.
    expect(
      await page.evaluate(() => [document.cookie, JSON.stringify(localStorage), JSON.stringify(sessionStorage)]),
    ).toEqual(['', '{}', '{}']);
  }, 60_000);

  it("the provider's access token reaches the ecosystem service, which accepts it: the directory entry is written", async () => {
    await page.getByLabel(/^Organisation name/).fill('OIDC Org');
    await page.getByRole('button', { name: 'Save the directory entry' }).click();
    expect(await flashText(page)).toBe('OIDC Org is in the directory as org-oidc.');
  }, 30_000);

  it('renews the access token with the refresh token before it expires, without the person noticing', async () => {
    // The console renews 30 s before expiry; the token lives 35 s.
    await new Promise((resolve) => setTimeout(resolve, (ACCESS_TOKEN_SECONDS - 29) * 1000));
    await page.goto(`${base}/orgs/org-oidc/directory`);
    await page.getByLabel(/^Organisation name/).fill('OIDC Org, renamed');
    await page.getByRole('button', { name: 'Save the directory entry' }).click();
    expect(await flashText(page)).toBe('OIDC Org, renamed is in the directory as org-oidc.');
    expect(provider.grants).toEqual(['authorization_code', 'refresh_token']);
  }, 60_000);

  it('no page, fragment or answer the browser received carried a token', async () => {
    const received = await Promise.all(bodies);
    for (const { url, body } of received) expect(body, url).not.toMatch(JWT);
    expect(received.length).toBeGreaterThan(3);
  });

  it("signs out: the console's session ends and the provider's session too (RP-initiated logout)", async () => {
    // Another replica with the same secret serves the same person from the browser's cookies (no affinity).
    const cookieHeader = (await browser.context.cookies(base)).map(({ name, value }) => `${name}=${value}`).join('; ');
    const onReplica = () =>
      fetch(`${replica.url}/orgs/org-oidc/directory`, { redirect: 'manual', headers: { cookie: cookieHeader } });
    const served = await onReplica();
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('owner@oidc.example');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    // Before the person confirms at the provider (its session still open): a copy of the cookies taken before
    // sign-out, on the replica that did not see it, is nobody once its access token needs renewal (30 s before
    // expiry: within 6 s here), because the console revoked the refresh token.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const copy = await onReplica();
    expect(copy.status).toBe(303);
    expect(copy.headers.get('location')).toMatch(/^\/sign-in/);
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.waitForURL(`${base}/sign-in?signedOut=true`);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out.');
    await page.goto(`${base}/orgs/org-oidc/directory`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  }, 60_000);

  it('a callback without the sign-in it answers (another browser, a replay) signs nobody in', async () => {
    await page.goto(`${base}/auth/callback?code=stolen&state=whatever`);
    expect(new URL(page.url()).searchParams.get('problem')).toBe('no-pending-sign-in');
    expect(await page.getByRole('alert').textContent()).toContain('Start again');
    expect((await browser.context.cookies(base)).some((cookie) => cookie.name === '__Host-tessera-session')).toBe(
      false,
    );
  }, 30_000);
});
