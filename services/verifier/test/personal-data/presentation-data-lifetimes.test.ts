import { afterEach, describe, expect } from 'vitest';
import { runRawStatement } from '@tessera/service-kit';
import { answerWithCredential } from '../support/answers.js';
import { answerRedirect, issueCredential, presentAll } from '../support/crafted-answers.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { MDL_NAMESPACE, PID_VCT } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { storedSession } from '../support/stored-rows.js';

// Lifetimes of presentation data (issue 15), with the app's clock moved instead of
// sleeping: every claim goes PRESENTATION_DATA_TTL_SECONDS (24 h here, the default)
// after verification, or sooner when the session asked for a shorter
// presentationDataTtlSeconds; claims not declared intent_to_retain: true go
// PRESENTATION_READ_GRACE_SECONDS (60 s) after the first successful read. Reading
// after that is 410 PRESENTATION_DATA_EXPIRED while the session still reads verified.
const test = e2eTest();
const ORIGIN = 'https://rp.tessera.test';
const DAY_MS = 86_400_000;
const DISCLOSED = { given_name: 'Erika', family_name: 'Mustermann' };

const pidQuery = (claims: Array<Record<string, unknown>>) => ({
  combine: 'all',
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims }],
});
const retained = pidQuery([
  { path: ['given_name'], intent_to_retain: true },
  { path: ['family_name'], intent_to_retain: true },
]);

/** A redirect session for `dcql` answered with a PID disclosing DISCLOSED; verified at the clock's current time. */
async function verifiedSession(e: E2e, dcql: unknown, options: Record<string, unknown> = {}) {
  const session = await e.createSession({ dcql, responseMode: 'direct_post', ...options });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(e.issuer, holder, { disclosable: DISCLOSED }))(holder, facts),
  );
  expect(answered.status).toBe(200);
  return session;
}

/** Reads the result at `offsetMs` from now on the app's clock. */
async function readAt(e: E2e, h: Harness, id: string, offsetMs: number) {
  h.clock.offsetMs = offsetMs;
  return e.readResult(id);
}

async function expectExpired(e: E2e, h: Harness, id: string, offsetMs: number) {
  const read = await readAt(e, h, id, offsetMs);
  expect(read.status, read.raw).toBe(410);
  expect(read.body).toMatchObject({ statusCode: 410, code: 'PRESENTATION_DATA_EXPIRED' });
  // The record of the session stays: it was verified, and when (updatedAt).
  const record = await e.readSession(id);
  expect(record.state).toBe('ResponseVerified');
  expect(read.body.message).toContain(record.updatedAt);
}

describe('presentation data lifetimes', () => {
  afterEach<{ harness: Harness }>(({ harness }) => {
    harness.clock.offsetMs = 0;
  });

  test('intent_to_retain: true claims stay past the read grace until PRESENTATION_DATA_TTL_SECONDS, then 410', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await verifiedSession(e, retained);
    expect((await readAt(e, h, session.id, 0)).body.data.presentations[0].claims).toMatchObject(DISCLOSED);
    const late = await readAt(e, h, session.id, DAY_MS - 10_000);
    expect(late.status).toBe(200);
    expect(late.body.data.presentations[0].claims).toEqual(DISCLOSED);
    await expectExpired(e, h, session.id, DAY_MS + 1000);
  });

  test('a session’s presentationDataTtlSeconds shortens the lifetime; a longer one does not lengthen it', async ({
    e2e: e,
    harness: h,
  }) => {
    const short = await verifiedSession(e, retained, { presentationDataTtlSeconds: 120 });
    expect((await readAt(e, h, short.id, 110_000)).status).toBe(200);
    await expectExpired(e, h, short.id, 121_000);

    h.clock.offsetMs = 0;
    const long = await verifiedSession(e, retained, { presentationDataTtlSeconds: 7 * 86_400 });
    expect((await readAt(e, h, long.id, DAY_MS - 10_000)).status).toBe(200);
    await expectExpired(e, h, long.id, DAY_MS + 1000);
  });

  test.for([
    ['absent', pidQuery([{ path: ['given_name'] }, { path: ['family_name'] }])],
    [
      'false',
      pidQuery([
        { path: ['given_name'], intent_to_retain: false },
        { path: ['family_name'], intent_to_retain: false },
      ]),
    ],
  ] as const)(
    'intent_to_retain %s: kept until read, then a retry within the grace succeeds and a read after it is 410',
    async ([, dcql], { e2e: e, harness: h }) => {
      const session = await verifiedSession(e, dcql);
      // Unread, the data waits for its reader (up to the TTL).
      const first = await readAt(e, h, session.id, 3_600_000);
      expect(first.status).toBe(200);
      expect(first.body.data.presentations[0].claims).toMatchObject(DISCLOSED);
      const retry = await readAt(e, h, session.id, 3_600_000 + 59_000);
      expect(retry.status).toBe(200);
      expect(retry.body.data.presentations).toEqual(first.body.data.presentations);
      await expectExpired(e, h, session.id, 3_600_000 + 61_000);
    },
  );

  test('mixed: after the grace only the intent_to_retain: true claims are returned, without the registered claims', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await verifiedSession(
      e,
      pidQuery([{ path: ['given_name'], intent_to_retain: true }, { path: ['family_name'] }]),
    );
    const first = await readAt(e, h, session.id, 0);
    expect(first.body.data.presentations[0].claims).toMatchObject({ ...DISCLOSED, vct: PID_VCT });
    const after = await readAt(e, h, session.id, 61_000);
    expect(after.status).toBe(200);
    expect(after.body.data.presentations[0]).toMatchObject({
      credentialQueryId: 'pid',
      format: 'dc+sd-jwt',
      vct: PID_VCT,
      claims: { given_name: 'Erika' },
    });
    expect(after.body.data.presentations[0].claims).toEqual({ given_name: 'Erika' });
    await expectExpired(e, h, session.id, DAY_MS + 1000);
  });

  test('the DC API answer is the first read: the grace runs from the answer', async ({ e2e: e, harness: h }) => {
    const session = await e.createSession({
      dcql: {
        combine: 'all',
        credentials: [
          { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims: [{ path: ['given_name'] }] },
        ],
      },
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
    });
    const answered = await answerWithCredential(e, 'sd-jwt', session, ORIGIN);
    expect(answered.status).toBe(200);
    expect(answered.body.data.presentations[0].claims).toHaveProperty('given_name');
    expect((await readAt(e, h, session.id, 59_000)).status).toBe(200);
    await expectExpired(e, h, session.id, 61_000);
  });

  test('mdoc: an element with intent_to_retain: true stays past the grace, the others go', async ({
    e2e: e,
    harness: h,
  }) => {
    const dcql = {
      combine: 'all',
      credentials: [
        {
          id: 'mdl',
          format: 'mso_mdoc',
          meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
          claims: [
            { path: [MDL_NAMESPACE, 'family_name'], intent_to_retain: true },
            { path: [MDL_NAMESPACE, 'given_name'], intent_to_retain: false },
          ],
        },
      ],
    };
    const session = await e.createSession({ dcql, responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const answered = await answerWithCredential(e, 'mdoc', session, ORIGIN);
    expect(answered.status).toBe(200);
    expect(answered.body.data.presentations[0].claims).toEqual({
      [MDL_NAMESPACE]: { family_name: 'Mustermann', given_name: 'Erika' },
    });
    const after = await readAt(e, h, session.id, 61_000);
    expect(after.status).toBe(200);
    expect(after.body.data.presentations[0]).toMatchObject({
      format: 'mso_mdoc',
      doctype: 'org.iso.18013.5.1.mDL',
      claims: { [MDL_NAMESPACE]: { family_name: 'Mustermann' } },
    });
    expect(after.body.data.presentations[0].claims).toEqual({ [MDL_NAMESPACE]: { family_name: 'Mustermann' } });
    await expectExpired(e, h, session.id, DAY_MS + 1000);
  });

  test('an encrypted session’s decryption key is deleted when the session is answered: the JWE the relying party holds cannot be opened later', async ({
    e2e: e,
    harness: h,
  }) => {
    const session = await e.createSession({
      dcql: pidQuery([{ path: ['given_name'] }]),
      responseMode: 'dc_api.jwt',
      expectedOrigins: [ORIGIN],
    });
    const sealedKey = async () => (await storedSession(h.testDb.database, session.id))!.encryptedEncryptionKey;
    expect(await sealedKey()).toEqual(expect.any(String));
    expect((await answerWithCredential(e, 'sd-jwt', session, ORIGIN)).status).toBe(200);
    expect(await sealedKey()).toBeNull();
  });

  test('presentationDataTtlSeconds must be a positive integer (400 VALIDATION_FAILED)', async ({ api, desk }) => {
    const refused = await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${desk}`, {
      dcql: retained,
      responseMode: 'direct_post',
      presentationDataTtlSeconds: 0,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
  });

  test('lifetimes over sealed data: the retained view is sealed under its own column; the audited read stamps the grace; 410 is decided before any decryption and records nothing', async ({
    e2e: e,
    harness: h,
  }) => {
    const db = h.testDb.database.db;
    const row = async (id: string) =>
      (
        await runRawStatement<{
          text: string;
          read_expires_at: string | null;
          has_retained: boolean;
          summary: unknown;
        }>(
          db,
          `select to_jsonb(r)::text as text, read_expires_at::text, sealed_retained_presentations is not null as has_retained, presentation_summary as summary
         from "verifier"."presentation_results" r where session_id = $1::uuid`,
          [id],
        )
      )[0]!;
    const reads = async (id: string) =>
      (
        await runRawStatement<{ n: number }>(
          db,
          `select count(*)::int as n from "verifier"."presentation_reads" where session_id = $1::uuid`,
          [id],
        )
      )[0]!.n;
    const mixed = pidQuery([{ path: ['given_name'], intent_to_retain: true }, { path: ['family_name'] }]);
    const session = await verifiedSession(e, mixed);

    // Stored: no claim value in the clear, a sealed retained view, and a plain summary with no claim.
    const stored = await row(session.id);
    for (const value of ['Erika', 'Mustermann']) expect(stored.text).not.toContain(value);
    expect(stored.has_retained).toBe(true);
    expect(stored.summary).toEqual([
      { credentialQueryId: 'pid', format: 'dc+sd-jwt', vct: PID_VCT, issuer: expect.any(String), holderBinding: true },
    ]);
    expect(stored.read_expires_at).toBeNull();

    // The first read is recorded and starts the grace in the same statement.
    expect((await readAt(e, h, session.id, 0)).status).toBe(200);
    expect(await reads(session.id)).toBe(1);
    const stamped = (await row(session.id)).read_expires_at;
    expect(stamped).not.toBeNull();
    expect((await readAt(e, h, session.id, 10_000)).status).toBe(200);
    expect((await row(session.id)).read_expires_at).toBe(stamped);

    // The retained ciphertext does not open as the full view (its column is in the AAD).
    await runRawStatement(
      db,
      `update "verifier"."presentation_results" set sealed_presentations = sealed_retained_presentations where session_id = $1::uuid`,
      [session.id],
    );
    const swapped = await readAt(e, h, session.id, 20_000);
    expect(swapped.status).toBe(500);
    expect(swapped.body.code).toBe('PRESENTATION_DATA_UNREADABLE');
    // After the grace only the retained view is opened: the full column is not needed.
    const retainedRead = await readAt(e, h, session.id, 61_000);
    expect(retainedRead.status).toBe(200);
    expect(retainedRead.body.data.presentations[0].claims).toEqual({ given_name: 'Erika' });

    // Past the lifetime, with both sealed columns unreadable: 410, not 500 — nothing was decrypted — and no read recorded.
    await runRawStatement(
      db,
      `update "verifier"."presentation_results" set sealed_presentations = 'x', sealed_retained_presentations = 'x' where session_id = $1::uuid`,
      [session.id],
    );
    const before = await reads(session.id);
    await expectExpired(e, h, session.id, DAY_MS + 1000);
    expect(await reads(session.id)).toBe(before);

    // An unread result past its lifetime: 410, no read recorded, no grace stamped.
    h.clock.offsetMs = 0;
    const unread = await verifiedSession(e, mixed);
    await expectExpired(e, h, unread.id, DAY_MS + 1000);
    expect(await reads(unread.id)).toBe(0);
    expect((await row(unread.id)).read_expires_at).toBeNull();
  });
});
