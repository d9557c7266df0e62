// The webhook tests' setting: the end-to-end setting (verifier on real HTTP, ORG's
// verifier `desk`, a wallet) with webhook timings short enough for tests, and a
// real HTTP receiver on loopback.
import { expect } from 'vitest';
import type { CreatedPresentation, WebhookWithSecret } from '@tessera/contracts';
import { answerWithCredential } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest, type HarnessSetup } from '../support/fixtures.js';
import { oid4vpPath, type MemberCall } from '../support/management.js';
import { startWebhookReceiver } from './receiver.js';

/**
 * Webhook settings for tests: the receiver listens on plain http on 127.0.0.1, so
 * http and loopback targets are allowed (the refusals have their own tests, with
 * the production defaults); retries start after 100 ms, attempts time out after
 * 500 ms, workers poll every 50 ms and the sweeper runs every 200 ms.
 */
export const WEBHOOK_TEST_CONFIG: Record<string, string> = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_DENY_PRIVATE_ADDRESSES: 'false',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '800',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  SESSION_EXPIRY_SWEEP_MS: '200',
};

/** `e2eTest` with the webhook test config (plus `config`) and `receiver`, a real HTTP receiver closed after the file. */
export function webhookTest(
  config: Record<string, string> = {},
  setup: Omit<Exclude<HarnessSetup, () => unknown>, 'config'> = {},
) {
  return e2eTest({ ...setup, config: { ...WEBHOOK_TEST_CONFIG, ...config } }).extend(
    'receiver',
    { scope: 'file' },
    async ({}, { onCleanup }) => {
      const receiver = await startWebhookReceiver();
      onCleanup(() => receiver.close());
      return receiver;
    },
  );
}

export const webhookPath = (verifierId: string, org?: string) => `${oid4vpPath(org)}/verifier/${verifierId}/webhook`;

/**
 * Gives `verifierId` a new webhook as an admin of the organisation (creating one, or
 * changing its url, is for owners and admins): any webhook it had is deleted first, with
 * its deliveries, so the `PUT …/webhook` creates (201 or the test fails) and answers the
 * secret — which it shows this once.
 */
export async function putWebhook(
  api: MemberCall,
  verifierId: string,
  body: { url: string; events: string[] },
): Promise<WebhookWithSecret> {
  const admin = { roles: ['admin'] };
  const deleted = await api('DELETE', webhookPath(verifierId), undefined, admin);
  expect([200, 404], deleted.raw).toContain(deleted.status);
  const saved = await api('PUT', webhookPath(verifierId), body, admin);
  expect(saved.status, saved.raw).toBe(201);
  return saved.body.data as WebhookWithSecret;
}

/** A session of `desk` (the e2e setting's verifier), redirect mode. */
export const createDeskSession = (e: E2e, body: Record<string, unknown> = {}) =>
  e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', ...body });

/** Ends the session in `ResponseVerified`: a wallet answers with a valid credential. */
export async function verifySession(e: E2e, session: CreatedPresentation): Promise<void> {
  const answered = await answerWithCredential(e, 'sd-jwt', session);
  expect(answered.status).toBe(200);
}

/** Ends the session in `Error`: the wallet answers with an OAuth error (WALLET_ERROR). */
export async function failSession(e: E2e, session: CreatedPresentation): Promise<void> {
  const answered = await e.postForm(session.responseUri!, {
    error: 'access_denied',
    error_description: 'declined',
    state: session.payloadState,
  });
  expect(answered.status).toBe(200);
}
