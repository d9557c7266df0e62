import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DcApiRequest } from '../../src/wallet.js';
import { startWebDemo, type WebDemo } from '../../src/web/start-web-demo.js';
import { launchHeadlessChromium, missingChromium } from '../support/headless-chromium.js';
import { startServicesProcess, type ServicesProcess } from '../support/services-process.js';

/** Screenshots of each end state (gitignored); one copy is committed as demo/web/screenshot.png. */
const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/web/', import.meta.url));
const SUITE = 'the reference relying-party page in headless Chromium';

// The services as `npm start` runs them, the page's backend, and a real browser on the page.
describe.skipIf(missingChromium(SUITE))(SUITE, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-web-demo-'));
  let services: ServicesProcess;
  let web: WebDemo;
  let browser: Awaited<ReturnType<typeof launchHeadlessChromium>>;

  beforeAll(async () => {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    services = await startServicesProcess(dataDir);
    web = await startWebDemo({ urls: services.urls, dataDir, port: 0 });
    browser = await launchHeadlessChromium();
  }, 150000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60000);

  /** A fresh page, recording the page's own calls to its backend. */
  async function openPage(): Promise<{ page: Page; calls: Request[] }> {
    const page = await browser.context.newPage();
    const calls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) calls.push(request);
    });
    return { page, calls };
  }

  const pathsOf = (calls: Request[]) => calls.map((call) => `${call.method()} ${new URL(call.url()).pathname}`);

  /** Starts a presentation with the form and answers the request URI the QR code carries. */
  async function showQrCode(page: Page, request: 'intent' | 'direct'): Promise<string> {
    await page.goto(web.url);
    await page.getByLabel(request === 'intent' ? /By intent/ : /Directly: a DCQL query/).check();
    await page.getByLabel(/On another device/).check();
    await page.getByRole('button', { name: 'Show the request' }).click();
    const qr = page.getByRole('img', { name: /QR code of the presentation request/ });
    await qr.waitFor();
    // The image is the backend's SVG, loaded and drawn (the element shows before its bytes arrive: wait for them).
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const requestUri = await qr.getAttribute('data-request-uri');
    expect(requestUri).toMatch(/^openid4vp:\/\/\?/);
    expect(await page.locator('#request-uri').textContent()).toBe(requestUri);
    return requestUri!;
  }

  async function claimsOnPage(page: Page): Promise<Record<string, string>> {
    const claims: Record<string, string> = {};
    for (const detail of await page.locator('#claims dd').all())
      claims[(await detail.getAttribute('data-claim'))!] = (await detail.textContent())!;
    return claims;
  }

  it('(a) QR flow: the demo wallet answers the QR code, the page shows the verified claims pushed over SSE', async () => {
    const { page, calls } = await openPage();
    const requestUri = await showQrCode(page, 'intent');
    const sessionId = await page.locator('body').getAttribute('data-session-id');
    // Before the wallet answers: the page is waiting, following the session's events.
    await page.getByRole('status').filter({ hasText: 'Waiting for your wallet' }).waitFor();

    const answer = await web.demoWallet.answerRequest(requestUri);
    expect(answer.status).toBe(200);

    await page.getByText('Verified: the wallet proved these claims.').waitFor();
    expect(await claimsOnPage(page)).toEqual({ age_over_18: 'true', given_name: 'Alex' });
    expect(await page.getByRole('status').getAttribute('data-state')).toBe('ResponseVerified');
    // Pushed, not polled: one event stream, and the result read once, after it said ResponseVerified.
    expect(pathsOf(calls).filter((path) => path.includes('/api/presentations'))).toEqual([
      'POST /api/presentations',
      `GET /api/presentations/${sessionId}/qr.svg`,
      `GET /api/presentations/${sessionId}/events`,
      `GET /api/presentations/${sessionId}/result`,
    ]);
    await page.screenshot({ path: join(OUTPUT_DIR, 'qr-flow-verified.png'), fullPage: true });
    await page.close();

    // Least privilege (issue 28, item 9): the backend read the claims with its own token,
    // which holds the verifier role alone: it reads results, and owner/admin routes refuse it.
    const { orgId, ownerToken, verifierToken } = web.relyingParty;
    const claims = decodeJwt(verifierToken) as { sub: string; resource_access: Record<string, { roles: string[] }> };
    expect(claims.resource_access).toEqual({ [orgId]: { roles: ['verifier'] } });
    const org = `${services.urls.verifier}/v1/orgs/${orgId}/oid4vp`;
    const reads = await fetch(`${org}/verifier-presentation-reads?id=${sessionId}`, {
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    const readers = ((await reads.json()) as { data: { data: Array<{ subject: string }> } }).data.data;
    expect(readers.map((read) => read.subject)).toEqual([claims.sub]);
    const audit = await fetch(`${org}/verifier-presentation-reads?id=${sessionId}`, {
      headers: { authorization: `Bearer ${verifierToken}` },
    });
    expect(audit.status).toBe(403);
  }, 60000);

  /**
   * A page whose `navigator.credentials.get` is a stand-in for the browser and its
   * wallet: of the requests the page passes, it answers the one of `protocol` with the
   * demo wallet (computed in Node: jose and @peculiar/x509 for OpenID4VP, @owf/mdoc and
   * panva's hpke for Annex C, nothing of the verifier), and records what it was offered.
   */
  async function openPageWithBrowserWallet(protocol: string) {
    const opened = await openPage();
    const offered: string[][] = [];
    await opened.page.exposeFunction('tesseraOffered', (protocols: string[]) => void offered.push(protocols));
    await opened.page.exposeFunction('tesseraDemoWallet', (request: DcApiRequest, origin: string) =>
      web.demoWallet.answerDcApiRequest(request, origin),
    );
    await opened.page.addInitScript((answering: string) => {
      const stand = window as unknown as {
        tesseraDemoWallet(request: unknown, origin: string): Promise<unknown>;
        tesseraOffered(protocols: string[]): Promise<void>;
      };
      Object.defineProperty(navigator, 'credentials', {
        configurable: true,
        value: {
          async get(options: { digital: { requests: Array<{ protocol: string; data: unknown }> } }) {
            const { requests } = options.digital;
            await stand.tesseraOffered(requests.map((request) => request.protocol));
            const request = requests.find((candidate) => candidate.protocol === answering);
            if (!request) throw new DOMException('no request this wallet answers', 'NotAllowedError');
            return {
              type: 'digital',
              protocol: request.protocol,
              data: await stand.tesseraDemoWallet(request, location.origin),
            };
          },
        },
      });
    }, protocol);
    return { ...opened, offered };
  }

  const OPENID4VP = ['openid4vp-v1-signed', 'openid4vp-v1-multisigned', 'openid4vp-v1-unsigned'];
  it.each([
    ['openid4vp-v1-signed', /Directly: a DCQL query/],
    ['openid4vp-v1-multisigned', /Directly: a DCQL query/],
    ['openid4vp-v1-unsigned', /Directly: a DCQL query/],
    ['org-iso-mdoc', /from a mobile driving licence/],
  ])(
    "(b) DC API flow, %s: the page asks with every protocol the query allows, forwards the wallet's answer with its protocol, and shows it",
    async (protocol, request) => {
      const { page, calls, offered } = await openPageWithBrowserWallet(protocol);
      await page.goto(web.url);
      await page.getByLabel(request).check();
      await page.getByRole('button', { name: 'Use the browser wallet' }).click();

      await page.getByText('Verified: the wallet proved these claims.').waitFor();
      expect(await claimsOnPage(page)).toEqual({ age_over_18: 'true', given_name: 'Alex' });
      // Every protocol the query allows, in the page's order: org-iso-mdoc only for the mdoc query.
      expect(offered).toEqual([protocol === 'org-iso-mdoc' ? ['org-iso-mdoc', ...OPENID4VP] : OPENID4VP]);
      const shown = page.locator('#answered-protocol');
      expect(await shown.getAttribute('data-protocol')).toBe(protocol);
      expect(await shown.textContent()).toContain(protocol);
      const forwarded = calls.find((call) => call.url().endsWith('/dc-api-response'))!;
      const body = forwarded.postDataJSON() as { response: { response: string }; protocol: string; origin: string };
      expect(body.origin).toBe(new URL(web.url).origin);
      expect(body.protocol).toBe(protocol);
      // What the browser handed over is encrypted to the session: a JWE (OpenID4VP, dc_api.jwt) or an HPKE EncryptedResponse.
      expect(Object.keys(body.response)).toEqual(['response']);
      if (protocol === 'org-iso-mdoc')
        expect(Buffer.from(body.response.response, 'base64url').subarray(0, 7).toString('latin1')).toContain('dcapi');
      else
        expect(decodeProtectedHeader(body.response.response)).toMatchObject({
          alg: 'ECDH-ES',
          enc: 'A128GCM',
          kid: expect.any(String),
        });
      expect(pathsOf(calls).filter((path) => path.endsWith('/result'))).toHaveLength(1);
      await page.screenshot({ path: join(OUTPUT_DIR, `dc-api-${protocol}-verified.png`), fullPage: true });
      await page.close();
    },
    60000,
  );

  it('(b) DC API flow by intent: the template asks for an SD-JWT VC, so org-iso-mdoc is not offered', async () => {
    const { page, offered } = await openPageWithBrowserWallet('openid4vp-v1-signed');
    await page.goto(web.url);
    await page.getByLabel(/By intent/).check();
    await page.getByRole('button', { name: 'Use the browser wallet' }).click();
    await page.getByText('Verified: the wallet proved these claims.').waitFor();
    expect(offered).toEqual([OPENID4VP]);
    // The backend forwards only a DigitalCredential's protocol.
    const sessionId = await page.locator('body').getAttribute('data-session-id');
    const refused = await page.evaluate(
      async (id) =>
        (
          await fetch(`/api/presentations/${id}/dc-api-response`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ response: { response: 'x' }, protocol: 'openid4vp', origin: location.origin }),
          })
        ).json(),
      sessionId,
    );
    expect(refused).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/protocol/),
    });
    await page.close();
  }, 60000);

  it('(c) a revoked credential: the page shows the refusal', async () => {
    const { page, calls } = await openPage();
    try {
      // The demo issuer's control on the page revokes the credential.
      await page.goto(web.url);
      const revoked = page.waitForResponse(
        (response) => response.url().endsWith('/api/demo-credential/status') && response.request().method() === 'PUT',
      );
      await page.getByLabel('The demo credential is revoked').check();
      expect((await revoked).status()).toBe(200);
      expect(web.demoWallet.revoked).toBe(true);
      // The list's ttl is one second: the verifier may serve its cached copy until then.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const requestUri = await showQrCode(page, 'direct');
      expect(await page.getByLabel('The demo credential is revoked').isChecked()).toBe(true);
      await web.demoWallet.answerRequest(requestUri);

      await page.getByText('Not verified.').waitFor();
      expect(await page.locator('#error-code').textContent()).toBe('CREDENTIAL_REVOKED');
      expect(await page.locator('#claims dd').count()).toBe(0);
      expect(pathsOf(calls).some((path) => path.endsWith('/result'))).toBe(false);
      await page.screenshot({ path: join(OUTPUT_DIR, 'revoked-refused.png'), fullPage: true });
    } finally {
      await page.close();
      await web.demoWallet.setRevoked(false);
    }
  }, 60000);

  it('same-device flow: the wallet redirects back with a response_code and this browser reads its result; another code is refused', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { page, calls } = await openPage();
    await page.goto(web.url);
    await page.getByLabel(/On this device/).check();
    await page.getByRole('button', { name: 'Show the request' }).click();
    const link = page.getByRole('link', { name: 'Open in your wallet app' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/^openid4vp:\/\/\?/);
    expect(await page.locator('#qr-figure').isHidden()).toBe(true);

    const sessionId = await page.locator('body').getAttribute('data-session-id');

    // The demo wallet answers; the page follows its redirect back, as the wallet app would.
    await page.getByRole('button', { name: 'Let the demo wallet answer' }).click();
    await page.getByText('Verified: the wallet proved these claims.').waitFor();
    expect(await claimsOnPage(page)).toEqual({ age_over_18: 'true', given_name: 'Alex' });
    // Read with the redirect's code, never through the session id; the code is gone from the address bar.
    const paths = pathsOf(calls);
    expect(paths).toContain('GET /api/same-device-result');
    expect(paths.some((path) => path.endsWith('/result'))).toBe(false);
    expect(new URL(page.url()).search).toBe('');
    // Nor can this browser read it by the session id: only the redirect's code opens it.
    const byId = await page.evaluate(async (id) => (await fetch(`/api/presentations/${id}/result`)).json(), sessionId);
    expect(byId).toMatchObject({ statusCode: 409, code: 'RESPONSE_CODE_REQUIRED' });

    // A redirect carrying a code that is not this browser's session's: refused, nothing shown.
    await page.goto(`${web.url}?response_code=${'A'.repeat(43)}`);
    await page.getByText('Not verified.').waitFor();
    expect(await page.locator('#error-code').textContent()).toBe('RESPONSE_CODE_MISMATCH');
    await page.close();

    // Another browser (no cookie of this one) has no same-device session here at all.
    const other = await fetch(new URL(`/api/same-device-result?responseCode=${'A'.repeat(43)}`, web.url));
    expect(other.status).toBe(404);
  }, 60000);

  it("the backend answers only the browser that started a session, and only the page's origin", async () => {
    const { page } = await openPage();
    await showQrCode(page, 'intent');
    const sessionId = (await page.locator('body').getAttribute('data-session-id'))!;
    await page.close();
    // No cookie: another browser.
    for (const path of ['events', 'result', 'qr.svg']) {
      expect((await fetch(new URL(`/api/presentations/${sessionId}/${path}`, web.url))).status).toBe(404);
    }
    const post = (origin?: string) =>
      fetch(new URL('/api/presentations', web.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify({ request: 'intent', flow: 'dc-api' }),
      });
    expect((await post()).status).toBe(403);
    expect((await post('https://attacker.example')).status).toBe(403);
    const bad = await fetch(new URL('/api/presentations', web.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(web.url).origin },
      body: JSON.stringify({ request: 'everything', flow: 'dc-api' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('request must be one of'),
    });

    // Malformed input from the page's own origin: a clear 4xx, nothing started.
    const origin = new URL(web.url).origin;
    const send = (path: string, init: RequestInit) =>
      fetch(new URL(path, web.url), { ...init, headers: { origin, ...(init.headers as Record<string, string>) } });
    const codeOf = async (response: Response) => [response.status, ((await response.json()) as { code: string }).code];
    expect(await codeOf(await send('/api/presentations', { method: 'POST', body: 'request=intent' }))).toEqual([
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    expect(
      await codeOf(
        await send('/api/presentations', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"request":',
        }),
      ),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect(
      await codeOf(
        await send('/api/presentations', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `"${'x'.repeat(300 * 1024)}"`,
        }),
      ),
    ).toEqual([413, 'BODY_TOO_LARGE']);
    expect(await codeOf(await send('/api/presentations', { method: 'DELETE' }))).toEqual([405, 'METHOD_NOT_ALLOWED']);
    expect(await codeOf(await send('/nowhere', { method: 'GET' }))).toEqual([404, 'NOT_FOUND']);
    expect(await codeOf(await send('/api/same-device-result', { method: 'GET' }))).toEqual([400, 'VALIDATION_FAILED']);
  }, 60000);
});
