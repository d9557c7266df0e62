import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, test as base } from 'vitest';
import type { TestDatabase } from '@tessera/service-kit/testing';
import { freePort, waitFor } from '@tessera/service-kit/testing';
import { loadVerifierConfig } from '../../src/config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
// The registry is the subject: every kind it names is looked at in the database.
import { listSealedValues, SEALED_KINDS } from '../../src/db/sealed-kinds.js';
import type { VerifierDbSchema } from '../../src/db/schema.js';
import { startVerifier, type RunningService } from '../../src/server.js';
import { resealSealedValues } from '../../src/use-cases/reseal-sealed-values.js';
import { answerWithCredential } from '../support/answers.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { createE2e } from '../support/e2e.js';
import { createDesk, createVerifierTestDatabase, temporaryDirectory } from '../support/fixtures.js';
import { createHarness, PUBLIC_BASE_URL, type Harness } from '../support/harness.js';
import { memberCall } from '../support/management.js';
import { startWebhookReceiver, verifyWithStandardWebhooks } from '../webhooks/receiver.js';
import { putWebhook, WEBHOOK_TEST_CONFIG, webhookPath } from '../webhooks/support.js';

// Key rotation cannot half-finish (issue 28, item 5): a start with KEY_ENCRYPTION_KEY_PREVIOUS
// moves every sealed value of every registered kind onto the new key, so the old key can go;
// a replica holding a value its keys do not open is not ready, and says which kind and how
// many, instead of starting and failing that value's every use. Real PostgreSQL, real HTTP,
// the real start (server.ts) for readiness.

const test = base
  // A database per test: each starts from its own first key.
  .extend('testDb', { scope: 'test' }, async ({}, { onCleanup }): Promise<TestDatabase<VerifierDbSchema>> => {
    const testDb = await createVerifierTestDatabase();
    onCleanup(() => testDb.drop());
    return testDb;
  })
  .extend('dir', { scope: 'file' }, temporaryDirectory('tessera-key-rotation-'));

const ORIGIN = 'https://rp.tessera.test';

/** Every registered kind's values in the database, by kind. */
async function sealedValuesByKind(testDb: TestDatabase<VerifierDbSchema>) {
  const byKind: Record<string, string[]> = {};
  for (const kind of SEALED_KINDS)
    byKind[kind.kind] = (await listSealedValues(testDb.database.db, kind, { limit: 1000 })).map((row) => row.sealed);
  return byKind;
}

/** A replica (the harness: the same start steps as server.ts) on the test's database. */
const replica = (testDb: TestDatabase<VerifierDbSchema>, keys: Record<string, string>) =>
  createHarness({ databaseUrl: testDb.url!, config: { ...WEBHOOK_TEST_CONFIG, ...keys } });

/** The real service (server.ts) on the test's database, on a known port (a held start answers there). */
async function startService(
  testDb: TestDatabase<VerifierDbSchema>,
  dir: string,
  h: Harness,
  keys: Record<string, string>,
): Promise<{ base: string; started: Promise<RunningService> }> {
  const port = await freePort();
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify(h.idp.jwks));
  const started = startVerifier(
    loadVerifierConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: testDb.url!,
      MIGRATE_ON_START: 'false',
      PUBLIC_BASE_URL,
      OIDC_ISSUER: h.idp.issuer,
      OIDC_AUDIENCE: h.idp.audience,
      OIDC_JWKS_FILE: join(dir, 'jwks.json'),
      ...keys,
    }),
  );
  return { base: `http://127.0.0.1:${port}`, started };
}

async function readiness(base: string) {
  const answer = await fetch(`${base}/health/ready`).catch(() => undefined);
  return answer
    ? { status: answer.status, body: (await answer.json()) as { checks?: Record<string, string> } }
    : undefined;
}

describe('KEY_ENCRYPTION_KEY rotation re-seals every registered kind', () => {
  test(
    'K1 creates one of each; K2 with previous K1 moves them all onto K2; K2 alone then reads, answers, signs and delivers',
    { timeout: 120_000 },
    async ({ testDb }) => {
      const k1 = generateKeyEncryptionKey();
      const k2 = generateKeyEncryptionKey();
      const receiver = await startWebhookReceiver();
      try {
        // K1: one value of every kind.
        const first = await replica(testDb, { KEY_ENCRYPTION_KEY: k1 });
        const api = memberCall(first);
        const desk = await createDesk(api);
        const e1 = await createE2e(first, desk);
        const hook = await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.verified'] });
        // A verified presentation: the organisation's data key; its signed request: the request-signing key.
        const verified = await e1.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
        expect((await answerWithCredential(e1, 'sd-jwt', verified)).status).toBe(200);
        await receiver.waitFor((entry) => entry.event.sessionId === verified.id);
        // Open sessions: a JWE decryption key, and an Annex C HPKE key.
        const encrypted = await e1.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post.jwt' });
        await e1.createSession({
          dcql: mdocQuery(),
          responseMode: 'dc_api',
          expectedOrigins: [ORIGIN],
          dcApiProtocols: ['org-iso-mdoc'],
        });
        // A certificate signing request waiting for its chain: its pending key.
        const csr = await api(
          'POST',
          `/v1/orgs/org-acme/oid4vp/certificates/P256/csr`,
          { subject: { commonName: 'Desk', organizationName: 'Acme', countryName: 'DE' } },
          { roles: ['owner'] },
        );
        expect(csr.status, csr.raw).toBe(201);
        await first.close();
        const underK1 = await sealedValuesByKind(testDb);
        for (const kind of SEALED_KINDS) expect(underK1[kind.kind], kind.kind).not.toHaveLength(0);

        // K2 with K1 as previous: every value of every kind is re-sealed under K2.
        const rotated = await replica(testDb, { KEY_ENCRYPTION_KEY: k2, KEY_ENCRYPTION_KEY_PREVIOUS: k1 });
        await rotated.close();
        const underK2 = await sealedValuesByKind(testDb);
        for (const kind of SEALED_KINDS)
          for (const [index, sealed] of underK2[kind.kind]!.entries())
            expect(sealed).not.toBe(underK1[kind.kind]![index]);
        expect(
          await resealSealedValues({ db: testDb.database.db, keyEncryptionKey: new KeyEncryptionKey(k2) }),
        ).toEqual({
          resealed: {},
          unopened: {},
        });

        // K2 alone: everything still works.
        const second = await replica(testDb, { KEY_ENCRYPTION_KEY: k2 });
        try {
          const e2 = { ...(await createE2e(second, desk)), issuer: e1.issuer };
          const read = await e2.readResult(verified.id);
          expect(read.status).toBe(200);
          expect(read.body.data.presentations).toHaveLength(1);
          // The open encrypted session: its request object is signed (signing key), the answer decrypted (session key).
          expect((await answerWithCredential(e2, 'sd-jwt', encrypted)).status).toBe(200);
          expect((await e2.readSession(encrypted.id)).state).toBe('ResponseVerified');
          // The webhook secret opens: the event is signed with the secret shown at creation.
          const [delivered] = await receiver.waitFor((entry) => entry.event.sessionId === encrypted.id);
          expect(() => verifyWithStandardWebhooks(hook.secret, delivered!)).not.toThrow();
          const deliveries = await memberCall(second)('GET', `${webhookPath(desk)}/deliveries?pageSize=100`);
          expect(deliveries.status).toBe(200);
        } finally {
          await second.close();
        }
      } finally {
        await receiver.close();
      }
    },
  );
});

describe('a value only the previous key opens holds the start', () => {
  test(
    'without KEY_ENCRYPTION_KEY_PREVIOUS the service is alive but not ready, naming the kind and the count; once a replica with it re-seals, it starts',
    { timeout: 120_000 },
    async ({ testDb, dir }) => {
      const k1 = generateKeyEncryptionKey();
      const k2 = generateKeyEncryptionKey();
      const old = await replica(testDb, { KEY_ENCRYPTION_KEY: k1 });
      let held: { base: string; started: Promise<RunningService> } | undefined;
      try {
        const api = memberCall(old);
        const desk = await createDesk(api);
        const second = (await api('POST', '/v1/orgs/org-acme/oid4vp/verifier', { verifierId: 'till' })).body.data
          .verifierId as string;
        await putWebhook(api, desk, { url: 'https://receiver.tessera.test/a', events: ['presentation.verified'] });
        // The rotation ran (K2 with previous K1)…
        await (await replica(testDb, { KEY_ENCRYPTION_KEY: k2, KEY_ENCRYPTION_KEY_PREVIOUS: k1 })).close();
        // …while a replica still on K1 alone sealed one more value: a webhook secret only K1 opens.
        await putWebhook(api, second, { url: 'https://receiver.tessera.test/b', events: ['presentation.verified'] });

        held = await startService(testDb, dir, old, { KEY_ENCRYPTION_KEY: k2 });
        const base = held.base;
        await waitFor(async () => (await readiness(base))?.status === 503, 20_000, 'the held start answering');
        expect(await readiness(base)).toEqual({
          status: 503,
          body: { status: 'unavailable', checks: { database: 'ok', keys: 'previous-key-needed: webhook-secret=1' } },
        });
        expect((await fetch(`${base}/health`)).status).toBe(200);
        const refused = await fetch(`${base}/v1/orgs/org-acme/oid4vp/verifier`);
        expect(refused.status).toBe(503);
        expect(await refused.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });

        // A replica given the previous key re-seals it; the held one then starts, without a restart.
        await (await replica(testDb, { KEY_ENCRYPTION_KEY: k2, KEY_ENCRYPTION_KEY_PREVIOUS: k1 })).close();
        const running = await held.started;
        held = undefined;
        try {
          expect(await readiness(base)).toMatchObject({ status: 200 });
        } finally {
          await running.close();
        }
      } finally {
        await old.close();
        if (held) await (await held.started).close();
      }
    },
  );
});
