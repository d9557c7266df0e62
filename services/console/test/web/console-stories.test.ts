import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tessera/service-kit/testing';
// The bundled demo issuer and wallet (independent of the services' code), and the way
// the demo's own tests run the services as `npm start` does and launch Chromium.
import { DEMO_VCT, issueDemoCredential } from '../../../../demo/src/demo-credential.js';
import { createDemoIssuer, type DemoIssuer } from '../../../../demo/src/issuer.js';
import { issueDemoMdl } from '../../../../demo/src/mdl.js';
import { publishStatusList, type PublishedStatusList } from '../../../../demo/src/status-list.js';
import { DemoWallet } from '../../../../demo/src/web/demo-wallet.js';
import { launchHeadlessChromium, missingChromium } from '../../../../demo/test/support/headless-chromium.js';
import { startServicesProcess, type ServicesProcess } from '../../../../demo/test/support/services-process.js';
// A CA answering a CSR (OpenSSL), a test PKI (@peculiar/x509) and a registrar (jose): the verifier's own
// test tools, sharing nothing with the service's code.
import { certifyRequest } from '../../../verifier/test/support/access-certificates.js';
import { issue, makeRoot, pemOf } from '../../../verifier/test/support/pki.js';
import {
  createTestRegistrar,
  signRegistrationCertificate,
} from '../../../verifier/test/support/registration-certificates.js';
import { signStatusListCwt } from '../support/status-list-cwt.js';
import { checkPage, expectAccessible, expectNoSidewaysScroll, flashText, signIn } from '../support/page-checks.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** Screenshots of every page the stories visit (gitignored); two are committed under docs/console/. */
const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
const SUITE = "the console in headless Chromium: each role's main story against the services";

const ADMIN = { sub: 'platform-admin', email: 'admin@platform.example', platformAdmin: true };
const LEAD = { sub: 'lena', email: 'lena@council.example', organisations: 'org-council: owner, admin, verifier' };
const SHOP = { sub: 'sam', email: 'sam@corner-shop.example', organisations: 'org-shop: owner, admin, verifier' };
const CLERK = { sub: 'carl', email: 'carl@corner-shop.example', organisations: 'org-shop: verifier' };

const QUERY = {
  combine: 'all',
  credentials: [
    {
      id: 'age',
      format: 'dc+sd-jwt',
      meta: { vct_values: [DEMO_VCT] },
      claims: [{ path: ['age_over_18'] }, { path: ['given_name'] }],
    },
  ],
};

/** A wider screenshot for the root README (copied by hand to docs/console/, as the reference page's is). */
async function readmeScreenshot(page: Page, name: string, fullPage: boolean): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(OUTPUT_DIR, name), fullPage });
  await page.setViewportSize({ width: 900, height: 1100 });
}

// The services and the console as `npm start` runs them (one process, PGlite, in-process
// transport, development sign-in), one Chromium, and the demo issuer's credential in the
// demo wallet. The stories run in order: each builds on the one before.
describe.skipIf(missingChromium(SUITE))(SUITE, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-console-'));
  let services: ServicesProcess;
  let browser: Awaited<ReturnType<typeof launchHeadlessChromium>>;
  let receiver: WebhookReceiver;
  let issuer: DemoIssuer;
  let statusList: PublishedStatusList;
  let apiKey: string;
  let wallet: DemoWallet;
  let page: Page;
  let base: string;
  let ecosystemUrl: string;
  let verifiedSessionUrl: string;

  beforeAll(async () => {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    // A read grace of seconds and a purge every second: the verified session's timeline ends with its purge.
    services = await startServicesProcess(dataDir, {
      PRESENTATION_READ_GRACE_SECONDS: '2',
      PURGE_INTERVAL_SECONDS: '1',
      SESSION_EXPIRY_SWEEP_MS: '500',
    });
    base = services.consoleUrl;
    [browser, receiver, issuer] = await Promise.all([
      launchHeadlessChromium(),
      startWebhookReceiver(),
      createDemoIssuer(),
    ]);
    apiKey = (JSON.parse(readFileSync(join(dataDir, 'dev-secrets.json'), 'utf8')) as Record<string, string>)
      .STATUS_LIST_API_KEY!;
    statusList = await publishStatusList({ statusListUrl: services.urls.statusList, apiKey, issuer });
    const held = await issueDemoCredential({ issuer, status: { idx: 3, uri: statusList.uri } });
    const platformCa = await (await fetch(`${services.urls.verifier}/oid4vp/platform-ca.pem`)).text();
    wallet = new DemoWallet(held, platformCa, statusList, 3, await issueDemoMdl(issuer));
    // Pages answer in well under a second here: a step that waits longer has failed.
    browser.context.setDefaultTimeout(10_000);
    page = await browser.context.newPage();
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('the platform administrator invites the council to lead an ecosystem', async () => {
    await signIn(page, base, ADMIN);
    await page.getByRole('link', { name: 'Platform administration' }).click();
    await page.getByLabel(/^E-mail address/).fill(LEAD.email);
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    expect(await flashText(page)).toBe(`Invitation sent to ${LEAD.email}.`);
    const row = page.getByRole('row', { name: new RegExp(LEAD.email) });
    expect(await row.textContent()).toContain('pending');
    expect(await row.textContent()).toContain('not formed yet');
    await checkPage(page, OUTPUT_DIR, 'admin');
  }, 60_000);

  it('the lead forms the ecosystem, writes a template in the DCQL editor and maps the intent to it, with a notice', async () => {
    await signIn(page, base, LEAD);
    await page.getByRole('link', { name: 'Directory entry' }).click();
    const entry = page.getByRole('region', { name: 'In the directory' });
    expect(await entry.textContent()).toContain('Not in the directory yet');
    await page.getByLabel(/^Organisation name/).fill('City Council');
    await page.getByRole('button', { name: 'Save the directory entry' }).click();
    expect(await flashText(page)).toBe('City Council is in the directory as org-council.');
    // The entry as the service keeps it (GET /v1/organisations/{orgId}), and the form filled with its name.
    expect(await entry.textContent()).toContain('City Council');
    expect(await entry.textContent()).toContain('lena@council.example');
    expect(await page.getByLabel(/^Organisation name/).inputValue()).toBe('City Council');

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Ecosystems' }).click();
    await page.getByLabel(/^Name/).fill('Age checks');
    await page.getByLabel(/^Description/).fill('Shops that check ages');
    await page.getByRole('button', { name: 'Form the ecosystem' }).click();
    expect(await flashText(page)).toBe('The ecosystem Age checks is formed, led by org-council.');
    ecosystemUrl = page.url();
    expect(await page.getByRole('region', { name: 'Signed trust list' }).textContent()).toContain('Sequence0');
    await checkPage(page, OUTPUT_DIR, 'ecosystem');

    // The DCQL editor checks the draft as it is typed, problems at their paths.
    await page.goto(`${base}/orgs/org-council/templates/new`);
    await page.getByLabel(/^Name/).fill('Over 18');
    const editor = page.getByLabel(/^DCQL query/);
    await editor.fill(JSON.stringify({ credentials: [{ id: 'age', format: 'dc+sd-jwt', meta: { vct_values: 'x' } }] }));
    await page.locator('#dcql-check').getByText('/combine').waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#dcql-check').textContent()).toContain('/credentials/0');
    await editor.fill(JSON.stringify(QUERY, null, 2));
    await page.locator('#dcql-check').getByText('The query looks right').waitFor();
    expect(await page.locator('#dcql-preview').textContent()).toContain('age_over_18');
    await checkPage(page, OUTPUT_DIR, 'template-editor');
    // What the verifier refuses on save comes back at its path, the draft kept.
    await editor.fill(JSON.stringify({ ...QUERY, credentials: [{ ...QUERY.credentials[0], format: 'jwt_vc_json' }] }));
    await page.getByRole('button', { name: 'Add the template' }).click();
    expect(await flashText(page)).toContain('(INVALID_DCQL)');
    expect(await page.locator('#problem').textContent()).toContain('/templateJson/dcql/query/credentials/0/format');
    expect(await editor.inputValue()).toContain('jwt_vc_json');
    await editor.fill(JSON.stringify(QUERY, null, 2));
    await page.getByRole('button', { name: 'Add the template' }).click();
    expect(await flashText(page)).toBe('The template Over 18 is saved.');

    await page.goto(ecosystemUrl);
    await page.getByLabel(/^Intent name/).fill('age-verification');
    await page.getByLabel(/^Description/).fill('Prove you are over 18');
    await page.getByRole('button', { name: 'Add the intent' }).click();
    expect(await flashText(page)).toBe('The intent age-verification is added.');
    await page.getByLabel('Verification template').selectOption({ label: 'Over 18 (org-council)' });
    await page.getByLabel(/^Role/).first().selectOption('verifier');
    await page.getByLabel('Why it is needed').fill('What a shop asks for');
    await page.getByRole('button', { name: 'Map the template' }).click();
    expect(await flashText(page)).toMatch(/^Template [0-9a-f-]{36} is mapped for the verifier role\.$/);
    const mapped = page.getByRole('region', { name: 'Templates verifiers ask with', exact: true });
    expect(await mapped.textContent()).toContain('Over 18');

    await page.getByLabel(/^Title/).fill('Age check at the till');
    await page.getByLabel(/^Controller$|^Controller \(required\)$/).fill('City Council');
    await page.getByLabel(/^Controller contact/).fill('privacy@council.example');
    await page.getByLabel(/^Purposes/).fill('dpv:ServiceProvision: To sell you age-restricted goods.');
    await page.getByLabel(/^Personal data categories/).fill('pd:Age');
    await page.getByRole('button', { name: 'Issue the notice' }).click();
    expect(await flashText(page)).toBe('Notice version 1 is issued.');
    const notice = page.getByRole('article', { name: 'Age check at the till' });
    expect(await notice.textContent()).toContain('City Council is responsible for your data');
    expect(await notice.textContent()).toContain('Kept for 30 days');
    await checkPage(page, OUTPUT_DIR, 'intent');
  }, 90_000);

  it("the lead registers the demo issuer in the trust registry, suspends it with a reason, and the signed list's sequence follows", async () => {
    await page.goto(ecosystemUrl);
    await page.getByRole('link', { name: 'Trusted issuers and verifiers' }).click();
    await page.getByLabel(/^Name/).fill('Demo Issuing Authority');
    await page.getByLabel(/^Allowed credential types/).fill(DEMO_VCT);
    await page.getByLabel(/^Certificates \(PEM\)/).fill(issuer.caPem);
    await page.getByRole('button', { name: 'Register the entity' }).click();
    expect(await flashText(page)).toBe('Demo Issuing Authority is registered as a trusted issuer.');
    await page.getByLabel(/^New status/).selectOption('suspended');
    await page.getByLabel(/^Reason/).fill('Signing key under investigation');
    await page.getByRole('button', { name: 'Change the status' }).click();
    expect(await flashText(page)).toBe('Demo Issuing Authority is suspended.');
    const history = await page.getByRole('region', { name: 'History' }).textContent();
    expect(history).toContain('Status active → suspended');
    expect(history).toContain('Reason: Signing key under investigation');
    expect(history).toContain('list sequence 2');
    await checkPage(page, OUTPUT_DIR, 'trusted-entity');
    await page.goto(ecosystemUrl);
    expect(await page.getByRole('region', { name: 'Signed trust list' }).textContent()).toContain('Sequence2');
  }, 60_000);

  it('the shop joins: its owner registers it, the lead invites it, the owner accepts on the start page', async () => {
    await signIn(page, base, SHOP);
    await page.goto(`${base}/orgs/org-shop/directory`);
    await page.getByLabel(/^Organisation name/).fill('Corner Shop');
    await page.getByRole('button', { name: 'Save the directory entry' }).click();

    await signIn(page, base, LEAD);
    await page.goto(ecosystemUrl);
    await page.getByLabel(/^Organisation id/).fill('org-shop');
    await page.getByRole('button', { name: 'Invite the organisation' }).click();
    expect(await flashText(page)).toBe(`org-shop is invited; the invitation went to ${SHOP.email}.`);

    await signIn(page, base, SHOP);
    await page.getByRole('button', { name: 'Accept the invitation to Age checks for org-shop' }).click();
    expect(await flashText(page)).toBe('org-shop joined Age checks.');
    await checkPage(page, OUTPUT_DIR, 'ecosystems');
  }, 60_000);

  it("the shop's administrator adds a trust anchor, a verifier and its webhook", async () => {
    await page.goto(`${base}/orgs/org-shop/trust-anchors`);
    await page.getByLabel(/^CA certificate \(PEM\) or DID/).fill(issuer.caPem);
    await page.getByLabel(/^Label/).fill('Demo Issuing Authority');
    await page.getByRole('button', { name: 'Add the anchor' }).click();
    expect(await flashText(page)).toBe('Demo Issuing Authority is trusted.');
    expect(await page.getByRole('region', { name: 'Trust anchors' }).textContent()).toContain('valid');
    await checkPage(page, OUTPUT_DIR, 'trust-anchors');

    // From the keyboard alone: focus, type, Enter submits.
    await page.goto(`${base}/orgs/org-shop/verifiers`);
    await page.getByLabel(/^Verifier id/).focus();
    await page.keyboard.type('till');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Corner Shop till');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/verifiers\/till$/);
    expect(await flashText(page)).toBe('The verifier till is added.');
    expect(await page.getByRole('region', { name: 'What wallets show' }).textContent()).toContain(
      'Corner Shop till (till)',
    );

    await page.getByLabel(/^Address the events are sent to/).fill(receiver.url);
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    expect(await flashText(page)).toContain('The webhook is saved.');
    // The signing secret is shown this once, and never again.
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await checkPage(page, OUTPUT_DIR, 'verifier');
    await page.reload();
    expect(await page.content()).not.toContain(secret);

    await page.goto(`${base}/orgs/org-shop/certificates`);
    expect(await page.getByRole('region', { name: 'P-256 (ES256) signer' }).textContent()).toContain('platform leaf');
    await checkPage(page, OUTPUT_DIR, 'certificates');
  }, 60_000);

  it('a presentation the demo wallet verifies appears live in the list, its timeline shows every step, its claims are read and audited', async () => {
    const list = await browser.context.newPage();
    await list.goto(`${base}/orgs/org-shop/sessions`);
    await checkPage(list, OUTPUT_DIR, 'sessions-empty');

    await page.goto(`${base}/orgs/org-shop/sessions/new`);
    await page.getByLabel("An ecosystem's intent").check();
    await page.getByLabel(/^Intent/).selectOption({ label: 'age-verification (Age checks)' });
    await page.getByRole('button', { name: 'Create the request' }).click();
    const qr = page.getByRole('img', { name: /QR code of the presentation request/ });
    // The image is the console's SVG of the request address, loaded and drawn.
    await waitFor(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 10_000);
    const requestUri = (await qr.getAttribute('data-request-uri'))!;
    expect(
      await page.getByRole('link', { name: 'Open the request in a wallet on this device' }).getAttribute('href'),
    ).toBe(requestUri);
    await checkPage(page, OUTPUT_DIR, 'session-open');
    verifiedSessionUrl = page.url();
    const sessionId = verifiedSessionUrl.split('/').at(-1)!;

    // The list shows the new session by itself, then its change, without a reload.
    const row = list.locator(`#session-${sessionId}`);
    await row.waitFor();
    const navigations: string[] = [];
    list.on('framenavigated', (frame) => navigations.push(frame.url()));

    expect((await wallet.answerRequest(requestUri)).status).toBe(200);
    await page.getByText('Answered by the wallet and verified').waitFor();
    await waitFor(async () => (await row.getAttribute('data-state')) === 'ResponseVerified', 10_000);
    expect(navigations).toEqual([]);
    expect(await list.locator('#live-announcer').textContent()).toContain('verified');
    expect(await page.locator('#live-announcer').textContent()).toBe('The session is now verified.');
    const timeline = (await page.getByRole('list', { name: 'What happened to this session' }).textContent())!;
    expect(timeline).toContain('Request created (direct_post) for verifier till');
    expect(timeline).toContain('Request fetched by the wallet');
    expect(timeline).toContain('Answered by the wallet and verified');
    await checkPage(list, OUTPUT_DIR, 'sessions-live');
    await list.close();

    await page.getByRole('button', { name: 'Read the claims' }).click();
    const claims = page.getByRole('region', { name: 'Claims of age' });
    expect(await claims.locator('tr[data-claim="age_over_18"] td').textContent()).toBe('true');
    expect(await claims.locator('tr[data-claim="given_name"] td').textContent()).toBe('Alex');
    expect(await page.getByRole('region', { name: 'Reads of the presentation data' }).textContent()).toContain(
      SHOP.sub,
    );
    expect(await page.getByRole('list', { name: 'What happened to this session' }).textContent()).toContain(
      `Presentation data read by ${SHOP.sub}`,
    );
    await checkPage(page, OUTPUT_DIR, 'session-verified');
    await readmeScreenshot(page, 'readme-session-verified.png', true);

    // The read grace ends and the verifier's purge job removes the claims: the last step, from the session record.
    const timelineText = async () =>
      (await page.getByRole('list', { name: 'What happened to this session' }).textContent()) ?? '';
    expect(await timelineText()).toContain('Claims not marked to retain kept until');
    // Loaded again by address: a reload would send the read's form again (another read).
    await waitFor(async () => {
      await page.goto(verifiedSessionUrl);
      return (await timelineText()).includes('Presentation data purged');
    }, 20_000);
    expect(await page.getByRole('region', { name: 'Reads of the presentation data' }).locator('tbody tr').count()).toBe(
      1,
    );
    expect(await timelineText()).not.toContain('kept until');
    await checkPage(page, OUTPUT_DIR, 'session-purged');
  }, 90_000);

  it("the verifier's webhook delivery is listed, and one click redelivers it", async () => {
    await waitFor(async () => receiver.received.length === 1, 10_000);
    expect(receiver.received[0]!.body).toMatchObject({ type: 'presentation.verified', verifierId: 'till' });
    await page.goto(`${base}/orgs/org-shop/verifiers/till`);
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries, newest first' });
    expect(await deliveries.textContent()).toContain('delivered');
    await deliveries.getByRole('button', { name: /^Redeliver presentation\.verified/ }).click();
    expect(await flashText(page)).toBe('The presentation.verified event is being delivered again.');
    await waitFor(async () => receiver.received.length === 2, 10_000);
    // The same event: receivers deduplicate on its id.
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  }, 60_000);

  it('a refused presentation (the credential revoked) shows the code of the check, and the status list shows the entry revoked', async () => {
    await wallet.setRevoked(true);
    // The list's ttl is one second: the verifier may use its copy until then.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await page.goto(`${base}/orgs/org-shop/sessions/new`);
    await page.getByLabel("An ecosystem's intent").check();
    await page.getByRole('button', { name: 'Create the request' }).click();
    const requestUri = (await page.getByRole('img', { name: /QR code/ }).getAttribute('data-request-uri'))!;
    await wallet.answerRequest(requestUri);
    await page.getByText('Answered by the wallet, and refused').waitFor();
    expect(await page.locator('.timeline .error-code').textContent()).toBe('CREDENTIAL_REVOKED');
    expect(await page.getByRole('button', { name: 'Read the claims' }).count()).toBe(0);
    await checkPage(page, OUTPUT_DIR, 'session-refused');

    // The platform's lists (the service's aggregation): the demo issuer's, and one in CWT form.
    const cwtId = randomUUID();
    const cwtUri = `${services.urls.statusList}/status-lists/${cwtId}`;
    const cwt = signStatusListCwt({ uri: cwtUri, bits: 2, statuses: [0, 2, 1, 2], size: 64, iat: 1_700_000_000 });
    const published = await fetch(`${services.urls.statusList}/status-lists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ id: cwtId, cwt: cwt.toString('base64url') }),
    });
    expect(published.status).toBe(201);
    await page.getByRole('link', { name: 'Status lists' }).click();
    const lists = page.getByRole('region', { name: "The platform's status lists" });
    expect(await lists.getByRole('row').count()).toBe(3);
    await checkPage(page, OUTPUT_DIR, 'status-lists');
    await lists.getByRole('link', { name: statusList.uri.split('/').pop()! }).click();
    await page.getByLabel('Find index').fill('3');
    await page.getByRole('button', { name: 'Open' }).click();
    expect(await page.locator('tr[data-index="3"]').textContent()).toBe('3INVALID (revoked)');
    await page.getByLabel('Find index').fill('');
    await page.getByLabel('Only entries that are').selectOption('0');
    await page.getByRole('button', { name: 'Open' }).click();
    expect(await page.locator('tr[data-index]').count()).toBe(15);
    await checkPage(page, OUTPUT_DIR, 'status-list');
    // History: the list's versions, newest first (the current one shown); the one before the revocation, opened
    // from there, has entry 3 still valid.
    const versions = page.getByRole('region', { name: 'Versions of the list, newest first' });
    expect(await versions.getByRole('row').count()).toBeGreaterThanOrEqual(3);
    expect(await versions.locator('tr[aria-current="true"]').textContent()).toContain('current');
    await versions
      .getByRole('link', { name: /^Open the version issued/ })
      .first()
      .click();
    expect(await versions.locator('tr[aria-current="true"]').textContent()).toContain('earlier');
    expect(await page.locator('tr[data-index="3"]').textContent()).toBe('3VALID');
    expect(await page.locator('tr[data-index]').count()).toBe(16);
    await page.getByRole('link', { name: 'The current version' }).click();
    expect(await page.locator('tr[data-index="3"]').textContent()).toBe('3INVALID (revoked)');

    // The CWT list, by its address: 2-bit entries.
    await page.getByLabel(/^List id or address/).fill(cwtUri);
    await page.getByLabel('Only entries that are').selectOption('2');
    await page.getByRole('button', { name: 'Open' }).click();
    expect(await page.getByText('CWT, signed ES256 (-7)').count()).toBe(1);
    expect(await page.locator('tr[data-index]').allTextContents()).toEqual(['1SUSPENDED', '3SUSPENDED']);
    await wallet.setRevoked(false);
    // The refusal's webhook delivery too, before the overview counts deliveries.
    await waitFor(async () => receiver.received.length === 3, 10_000);
  }, 60_000);

  it("the overview charts the shop's day, each chart drawn from the table beside it", async () => {
    await page.goto(`${base}/orgs/org-shop`);
    expect(await page.locator('canvas[data-drawn="true"]').count()).toBe(4);
    const sum = async (table: string, column: number) =>
      (await page.locator(`#${table} tbody tr td:nth-of-type(${column})`).allTextContents()).reduce(
        (total, cell) => total + Number(cell),
        0,
      );
    expect(await sum('per-hour-table', 1)).toBe(1);
    expect(await sum('per-hour-table', 2)).toBe(1);
    expect(await page.locator('#refusals-table tbody').textContent()).toBe('CREDENTIAL_REVOKED1');
    expect(await page.locator('#deliveries-table tbody').textContent()).toBe('till200');
    await checkPage(page, OUTPUT_DIR, 'overview');
    await readmeScreenshot(page, 'readme-overview.png', false);
  }, 60_000);

  it('a clerk with the verifier role is offered only what the role may do, and the services refuse the rest anyway', async () => {
    await signIn(page, base, CLERK);
    const menu = page.getByRole('navigation', { name: 'Console' });
    expect(await menu.getByRole('link', { name: 'Directory entry' }).count()).toBe(0);
    await page.goto(verifiedSessionUrl);
    expect(await page.getByRole('region', { name: 'Read audit' }).count()).toBe(0);
    // Who the organisation is to wallets is the owners' and admins': no CSR form, no registration upload.
    await page.goto(`${base}/orgs/org-shop/certificates`);
    expect(await page.getByText('Ask for an access certificate (make a CSR)').count()).toBe(0);
    await page.goto(`${base}/orgs/org-shop/verifiers/till`);
    expect(await page.getByRole('button', { name: 'Upload the registration certificate' }).count()).toBe(0);
    // The directory entry is the owner's: the form is not offered, and posted anyway it is refused by the service.
    await page.goto(`${base}/orgs/org-shop/directory`);
    await page.getByLabel(/^Organisation name/).fill('Renamed by a clerk');
    await page.getByRole('button', { name: 'Save the directory entry' }).click();
    expect(await flashText(page)).toMatch(/\(FORBIDDEN\)$/);
  }, 60_000);

  it('a browser session offers the DC API protocols chosen, and the session page names them in order', async () => {
    await signIn(page, base, SHOP);
    await page.goto(`${base}/orgs/org-shop/sessions/new`);
    await page.getByLabel("An ecosystem's intent").check();
    await page.getByLabel(/^Intent/).selectOption({ label: 'age-verification (Age checks)' });
    await page.getByLabel(/^Response mode/).selectOption('dc_api.jwt');
    await page.getByLabel(/^Expected origins/).fill('https://shop.example');
    // Ticked in the other order: the form sends them in the order it lists them.
    await page.getByLabel(/^OpenID4VP, unsigned request/).check();
    await page.getByLabel(/^OpenID4VP, signed request/).check();
    await page.getByRole('button', { name: 'Create the request' }).click();
    expect(await flashText(page)).toBe('The request is ready for the browser (Digital Credentials API).');
    const protocols = page.locator('dt:text-is("DC API protocols") + dd li');
    expect(await protocols.allTextContents()).toEqual(['openid4vp-v1-signed', 'openid4vp-v1-unsigned']);
    expect(await page.locator('dt:text-is("Expected origins") + dd').textContent()).toBe('https://shop.example');
    await checkPage(page, OUTPUT_DIR, 'session-dc-api');
  }, 60_000);

  it('the rarer options of a request, folded under "Advanced options": each refusal at its field, then a request with them', async () => {
    // A template of the shop's own: a direct request may name an ecosystem whose trust list to verify against.
    await page.goto(`${base}/orgs/org-shop/templates/new`);
    await page.getByLabel(/^Name/).fill('Shop age check');
    await page.getByLabel(/^DCQL query/).fill(JSON.stringify(QUERY, null, 2));
    await page.getByRole('button', { name: 'Add the template' }).click();
    expect(await flashText(page)).toBe('The template Shop age check is saved.');

    await page.goto(`${base}/orgs/org-shop/sessions/new`);
    const advanced = page.locator('details#advanced');
    expect(await advanced.getAttribute('open')).toBeNull();
    // Folded, and opened from the keyboard like any disclosure.
    await page.locator('details#advanced > summary').focus();
    await page.keyboard.press('Enter');
    expect(await advanced.getAttribute('open')).not.toBeNull();
    await checkPage(page, OUTPUT_DIR, 'new-request-advanced');

    /** Submits the form and expects the refusal at `field`: linked to it, the options open again, the value kept. */
    const refusedAt = async (field: string, label: RegExp, code: string) => {
      await page.getByRole('button', { name: 'Create the request' }).click();
      expect(await flashText(page)).toContain(`(${code})`);
      expect(await advanced.getAttribute('open')).not.toBeNull();
      const control = page.getByLabel(label);
      expect(await control.getAttribute('aria-invalid')).toBe('true');
      expect(await control.getAttribute('aria-describedby')).toContain(`${field}-problem`);
      expect((await page.locator(`#${field}-problem`).textContent())!.length).toBeGreaterThan(0);
    };
    // The verifier's schema: a state with a space.
    await page.getByLabel(/^Template/).selectOption({ label: 'Shop age check' });
    await page.getByLabel(/^Payload state/).fill('not a state!');
    await refusedAt('payloadState', /^Payload state/, 'VALIDATION_FAILED');
    expect(await page.getByLabel(/^Payload state/).inputValue()).toBe('not a state!');
    await page.getByLabel(/^Payload state/).fill('');
    // The console's own check: transaction data that is not JSON.
    await page.getByLabel(/^Transaction data/).fill('[{ type: payment }]');
    await refusedAt('transactionData', /^Transaction data/, 'VALIDATION_FAILED');
    // The verifier's rule: the entry names a credential query the template does not have.
    await page.getByLabel(/^Transaction data/).fill('[{ "type": "payment", "credential_ids": ["card"] }]');
    await refusedAt('transactionData', /^Transaction data/, 'VALIDATION_FAILED');
    expect(await page.locator('#transactionData-problem').textContent()).toContain('card');
    await page.getByLabel(/^Transaction data/).fill('');
    await page.getByLabel(/^Redirect address/).fill('https://shop.example/done?response_code=1');
    await refusedAt('redirectUri', /^Redirect address/, 'VALIDATION_FAILED');
    await page.getByLabel(/^Redirect address/).fill('');
    // The ecosystem's list has no active issuer of the query's type (the lead suspended the demo issuer).
    await page.getByLabel(/^Trust an ecosystem/).selectOption({ label: 'Age checks' });
    await refusedAt('ecosystemId', /^Trust an ecosystem/, 'NO_TRUSTED_ISSUER');
    // An ecosystem named for an intent: refused by the console, before any call.
    await page.getByLabel("An ecosystem's intent").check();
    await refusedAt('ecosystemId', /^Trust an ecosystem/, 'VALIDATION_FAILED');
    await page.getByLabel(/^Trust an ecosystem/).selectOption('');

    // By intent, with every other option: created, its record says so.
    const state = 'order-4711-2b7f0c9e81d34a6f95c3';
    await page.getByLabel(/^Payload state/).fill(state);
    await page.getByLabel(/^Request signer/).selectOption('X509_P256');
    await page.getByLabel(/^Client identifier prefix/).selectOption('x509_hash');
    await page.getByLabel(/^Keep the presentation data for/).fill('120');
    await page.getByLabel(/^Transaction data/).fill('[{ "type": "payment", "credential_ids": ["age"] }]');
    await page.getByLabel(/^Redirect address/).fill('https://shop.example/done');
    await page.getByRole('button', { name: 'Create the request' }).click();
    expect(await flashText(page)).toBe(
      'The request is ready: show the QR code to the wallet, or open the link on this device.',
    );
    expect(await page.locator('dt:text-is("Payload state") + dd').textContent()).toBe(state);
    expect(await page.locator('dt:text-is("Client id") + dd').textContent()).toMatch(/^x509_hash:/);
    await checkPage(page, OUTPUT_DIR, 'session-advanced');
  }, 90_000);

  it("the shop's administrator makes a CSR, sees it pending, uploads the CA's chain without a key, and the verifier's registration certificate", async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${base}/orgs/org-shop/certificates`);
    const p256 = page.getByRole('region', { name: 'P-256 (ES256) signer' });
    expect(await p256.textContent()).toContain('platform leaf');
    await p256.getByText('Ask for an access certificate (make a CSR)').click();
    // A bad country is the verifier's refusal, at its field, and the rest of the form comes back.
    await p256.getByLabel(/^Common name/).fill('Corner Shop');
    await p256.getByLabel(/^Legal name of the organisation/).fill('Corner Shop GmbH');
    await p256.getByLabel(/^Organisation identifier/).fill('VATDE-123456789');
    await p256.getByLabel(/^Country/).fill('Germany');
    await p256.getByLabel(/^URIs/).fill('https://shop.example/support');
    await p256.getByRole('button', { name: 'Make the certificate signing request' }).click();
    expect(await flashText(page)).toContain('(VALIDATION_FAILED)');
    const country = page.getByRole('region', { name: 'P-256 (ES256) signer' }).getByLabel(/^Country/);
    expect(await country.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page
        .getByLabel(/^Legal name of the organisation/)
        .first()
        .inputValue(),
    ).toBe('Corner Shop GmbH');
    await checkPage(page, OUTPUT_DIR, 'certificates-csr-refused');
    await country.fill('DE');
    await page.getByRole('button', { name: 'Make the certificate signing request' }).first().click();
    expect(await flashText(page)).toContain('The certificate signing request is made');

    // Pending, beside the signer still in force; its PEM copied and downloaded.
    const pending = page.getByRole('group', { name: /Certificate signing request pending/ });
    expect(await pending.textContent()).toContain('VATDE-123456789');
    expect(await page.getByRole('region', { name: 'P-256 (ES256) signer' }).textContent()).toContain('platform leaf');
    const csrPem = await pending.getByLabel('The request (PKCS#10, PEM)').inputValue();
    expect(csrPem).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    await pending.getByRole('button', { name: 'Copy the CSR' }).click();
    await pending.getByRole('status').getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(csrPem);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      pending.getByRole('link', { name: 'Download the CSR' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('org-shop-p256.csr.pem');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(csrPem);
    await checkPage(page, OUTPUT_DIR, 'certificates-csr-pending');

    // The CA certifies the request; its chain goes back without a key and signs from now on.
    const root = await makeRoot('Access CA Root');
    const intermediate = await issue({ issuer: root, name: 'Access CA', ca: true });
    const leafPem = await certifyRequest({ issuer: intermediate, csrPem });
    await pending.getByLabel(/^The chain your CA issued/).fill(`${leafPem}${pemOf(intermediate, root)}`);
    await pending.getByRole('button', { name: 'Upload the chain' }).click();
    expect(await flashText(page)).toContain('Requests are now signed with the key of your certificate signing request');
    const signer = page.getByRole('region', { name: 'P-256 (ES256) signer' });
    expect(await signer.textContent()).toContain('your access certificate (from a CSR)');
    expect(await signer.locator('dt:text-is("Organisation identifier") + dd').textContent()).toBe('VATDE-123456789');
    expect(await page.getByRole('group', { name: /Certificate signing request pending/ }).count()).toBe(0);
    await checkPage(page, OUTPUT_DIR, 'certificates-csr');

    // The registrar's root as a registrar anchor, then the verifier's registration certificate.
    const registrar = await createTestRegistrar('Corner Registrar');
    await page.goto(`${base}/orgs/org-shop/trust-anchors`);
    await page.getByLabel(/^CA certificate \(PEM\) or DID/).fill(registrar.root.certificate.toString('pem'));
    await page.getByLabel(/^Label/).fill('Corner Registrar');
    await page.getByLabel('Registration certificates').check();
    await page.getByRole('button', { name: 'Add the anchor' }).click();
    expect(await flashText(page)).toBe('Corner Registrar is trusted.');
    expect(await page.getByRole('row', { name: /Corner Registrar/ }).textContent()).toContain(
      'registration certificates',
    );

    await page.goto(`${base}/orgs/org-shop/verifiers/till`);
    // One the registrar did not sign is refused with the verifier's reason, and nothing is kept.
    const forged = await signRegistrationCertificate({
      registrar,
      signingKey: (await makeRoot('Forger')).keys.privateKey,
    });
    await page.getByLabel(/^Registration certificate \(JWT\)/).fill(forged);
    await page.getByRole('button', { name: 'Upload the registration certificate' }).click();
    expect(await flashText(page)).toContain('(REGISTRATION_CERTIFICATE_INVALID)');
    expect(await page.getByRole('region', { name: 'Registration certificate' }).textContent()).toContain(
      'SIGNATURE_INVALID',
    );
    expect(await page.getByRole('region', { name: 'Registration certificate' }).textContent()).toContain(
      'No registration certificate',
    );
    await checkPage(page, OUTPUT_DIR, 'verifier-registration-refused');
    const jwt = await signRegistrationCertificate({ registrar });
    await page.getByLabel(/^Registration certificate \(JWT\)/).fill(jwt);
    await page.getByRole('button', { name: 'Upload the registration certificate' }).click();
    expect(await flashText(page)).toContain('The registration certificate of');
    const registration = page.getByRole('region', { name: 'Registration certificate' });
    const summary = (await registration.textContent())!;
    expect(summary).toContain('valid');
    expect(summary).toContain('VATDE-123456789');
    expect(summary).toContain('Corner Registrar');
    expect(summary).toContain('To check your age before selling alcohol');
    expect(summary).toContain('urn:eudi:pid:1');
    await checkPage(page, OUTPUT_DIR, 'verifier-registration');

    // Settings: over-asking listed instead of refused. Meanwhile a colleague, in another tab opened
    // before, renames the display: both changes stay (each form sends only its own fields, PATCH).
    const colleague = await browser.context.newPage();
    await colleague.goto(page.url());
    await page.getByLabel('Allow it and list what a wallet will flag').check();
    await colleague.getByLabel(/^Display name/).fill('Corner Shop till 2');
    await colleague.getByRole('button', { name: 'Save the display data' }).click();
    expect(await flashText(colleague)).toBe('The display data is saved.');
    await colleague.close();
    await page.getByRole('button', { name: 'Save the settings' }).click();
    expect(await flashText(page)).toContain('The settings are saved');
    expect(await page.getByLabel('Allow it and list what a wallet will flag').isChecked()).toBe(true);
    expect(await page.getByLabel('Only sessions HAIP 1.0 allows').isChecked()).toBe(false);
    expect(await page.getByRole('region', { name: 'What wallets show' }).textContent()).toContain('Corner Shop till 2');
    await page.getByRole('button', { name: 'Remove the registration certificate' }).click();
    expect(await flashText(page)).toBe('The registration certificate is removed: requests no longer carry it.');
    expect(await page.getByRole('region', { name: 'Registration certificate' }).textContent()).toContain(
      'No registration certificate',
    );
  }, 90_000);

  it('every page works at phone width, from the keyboard, with its landmarks', async () => {
    await signIn(page, base, SHOP);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, name] of [
        ['/orgs/org-shop', 'overview'],
        ['/orgs/org-shop/sessions', 'sessions'],
        [new URL(verifiedSessionUrl).pathname, 'session'],
        ['/orgs/org-shop/templates/new', 'template-editor'],
        ['/orgs/org-shop/verifiers/till', 'verifier'],
        ['/orgs/org-shop/certificates', 'certificates'],
        [new URL(ecosystemUrl).pathname, 'ecosystem'],
      ] as const) {
        await page.goto(`${base}${path}`);
        await expectNoSidewaysScroll(page);
        // The menu starts folded, so the page's content comes first.
        expect(await page.locator('#menu-details').evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
        await expectAccessible(page, `${name} at phone width`);
        await page.screenshot({ path: join(OUTPUT_DIR, `phone-${name}.png`), fullPage: true });
      }
      await page.getByText('Menu', { exact: true }).click();
      expect(await page.getByRole('link', { name: 'Sessions' }).isVisible()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 900, height: 1100 });
    }
    // The first Tab reaches the skip link, which takes focus to the page's content.
    await page.goto(`${base}/orgs/org-shop/sessions`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
  }, 90_000);
});
