import { randomBytes } from 'node:crypto';
import { lookup, type LookupAddress } from 'node:dns';
import { describe, expect } from 'vitest';
import type { WebhookDelivery } from '@tessera/contracts';
import { waitFor } from '@tessera/service-kit/testing';
import { createWebhookSender } from '../../src/webhooks/create-webhook-sender.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { presentPid, requestFacts, resolveRedirectRequest, buildResponse, submitResponse } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { notAcceptedDescription, verificationErrorText, walletErrorText } from '../support/session-error-texts.js';
import { storedSession } from '../support/stored-rows.js';
import { createDeskSession, failSession, putWebhook, webhookPath, WEBHOOK_TEST_CONFIG } from '../webhooks/support.js';

// Errors say nothing about the inside (issue 28, item 3), asserted as exact texts over
// real HTTP: a session's `error.message` is a fixed sentence per code plus the credential
// query id — never a parser's message, which quoted claim values into the unsealed
// `error_message` — and a refused webhook attempt reads "refused: the address is not
// public", with no resolved address or range and the same words whether the name exists.

// Names the webhook sender resolves here (the test plays DNS for it, as a cluster's would answer).
const INTERNAL_NAME = 'kubernetes.default.svc.cluster.local';
const MISSING_NAME = 'no-such-service.default.svc.cluster.local';
const playedDns = ((
  hostname: string,
  options: Parameters<typeof lookup>[1],
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => {
  if (hostname === INTERNAL_NAME) return callback(null, [{ address: '10.96.0.1', family: 4 }]);
  if (hostname === MISSING_NAME)
    return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  return lookup(hostname, { ...options, all: true }, callback);
}) as unknown as typeof lookup;

const test = e2eTest({
  config: { ...WEBHOOK_TEST_CONFIG, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DENY_PRIVATE_ADDRESSES: 'true' },
  sendWebhook: createWebhookSender({ denyPrivateAddresses: true, timeoutMs: 500, resolve: playedDns }),
});

const ADDRESS_REFUSED = 'refused: the address is not public';

describe("a session's error is a fixed sentence per code and credential query", () => {
  test("a malformed Disclosure: the parser's message, which quotes the claim value, reaches no answer, read or row", async ({
    e2e: e,
    harness: h,
  }) => {
    // Not JSON: a parser's message quotes the bytes around the fault — the claim value.
    const value = `Erika${randomBytes(4).toString('hex')}`;
    const malformed = Buffer.from(`["c2FsdHNhbHQ","given_name",${value}]`).toString('base64url');
    const session = await createDeskSession(e);
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const holder = await newHolder();
    const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), {
      extraDisclosures: [malformed],
    });
    const answered = await submitResponse(
      e.wallet,
      resolved,
      await buildResponse(e.wallet, resolved, { pid: [presentation] }),
    );
    expect(answered).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: notAcceptedDescription('DISCLOSURE_INVALID', 'pid') },
    });
    const read = await h.call('GET', `/v1/orgs/org-acme/oid4vp/verifier-presentation?id=${session.id}`, {
      headers: await h.auth('org-acme'),
    });
    expect(read.body.data.error).toEqual({
      code: 'DISCLOSURE_INVALID',
      message: 'A disclosure of the credential is invalid (credential query "pid").',
    });
    expect(read.raw).not.toContain(value);
    const row = await storedSession(h.testDb.database, session.id);
    expect(row).toMatchObject({
      errorCode: 'DISCLOSURE_INVALID',
      errorSubject: 'pid',
      errorMessage: verificationErrorText('DISCLOSURE_INVALID', 'pid'),
    });
    expect(JSON.stringify(row)).not.toContain(value);
  });

  test('a wallet error keeps a registered code only, never the free text it came with', async ({
    e2e: e,
    harness: h,
  }) => {
    const secret = `internal-${randomBytes(4).toString('hex')}`;
    const registered = await createDeskSession(e);
    expect(
      await e.postForm(registered.responseUri!, {
        error: 'access_denied',
        error_description: `user ${secret} said no`,
        state: registered.payloadState,
      }),
    ).toEqual({ status: 200, body: {} });
    expect((await e.readSession(registered.id)).error).toEqual({
      code: 'WALLET_ERROR',
      message: 'The wallet answered with an error: access_denied.',
    });
    const unregistered = await createDeskSession(e);
    expect(
      (
        await e.postForm(unregistered.responseUri!, {
          error: `made_up_${secret}`,
          error_description: secret,
          state: unregistered.payloadState,
        })
      ).status,
    ).toBe(200);
    expect((await e.readSession(unregistered.id)).error).toEqual({ code: 'WALLET_ERROR', message: walletErrorText() });
    for (const id of [registered.id, unregistered.id])
      expect(JSON.stringify(await storedSession(h.testDb.database, id))).not.toContain(secret);
  });

  test('over the DC API: the answer to a wallet error carries the same sentence', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'dc_api',
      expectedOrigins: ['https://rp.tessera.test'],
    });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { error: 'access_denied', error_description: 'a long story' },
      origin: 'https://rp.tessera.test',
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({
      id: session.id,
      state: 'Error',
      error: { code: 'WALLET_ERROR', message: walletErrorText('access_denied') },
    });
  });
});

describe('a refused webhook attempt names no address, range or whether the name exists', () => {
  test.for([
    ['a name that resolves inside the cluster (10.96.0.1)', INTERNAL_NAME],
    ['a name that does not exist', MISSING_NAME],
    ['a name that resolves to loopback', 'localhost'],
  ] as const)('%s: "refused: the address is not public"', async ([_case, host], { e2e: e, api, desk }) => {
    await putWebhook(api, desk, { url: `http://${host}:8080/hooks`, events: ['presentation.failed'] });
    const session = await createDeskSession(e);
    await failSession(e, session);
    let delivery: WebhookDelivery | undefined;
    await waitFor(
      async () => {
        const page = await api('GET', `${webhookPath(desk)}/deliveries?pageSize=100`);
        delivery = (page.body.data.data as WebhookDelivery[]).find((entry) => entry.event.sessionId === session.id);
        return (delivery?.attempts.length ?? 0) >= 1;
      },
      5000,
      'a refused attempt',
    );
    expect(delivery!.attempts[0]).toEqual({
      attemptedAt: expect.any(String),
      durationMs: expect.any(Number),
      error: ADDRESS_REFUSED,
      succeeded: false,
    });
    const listed = await api('GET', `${webhookPath(desk)}/deliveries?pageSize=100`);
    // Without the timestamps: a time such as 18:13:10.965Z holds "10.96" and says nothing of an address.
    const text = listed.raw.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>');
    for (const inside of ['10.96', '127.0.0.1', '::1', 'private', 'loopback', 'ENOTFOUND', 'resolve'])
      expect(text, inside).not.toContain(inside);
  });
});
