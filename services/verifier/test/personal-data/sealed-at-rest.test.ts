import { eq } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import { describe, expect } from 'vitest';
import { generateKeyEncryptionKey, KeyDecryptionError, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import { dataKeyContext } from '../../src/crypto/sealing-contexts.js';
// What is stored at rest, and rows altered or swapped as an attacker with database access would: src/db is the subject here.
import { findDataKey } from '../../src/db/data-keys.js';
import { presentationResults } from '../../src/db/schema.js';
import { createDataKeyRing } from '../../src/state/data-key-ring.js';
import {
  answerMdlOverDcApi,
  answerRedirect,
  expectVerified,
  issueCredential,
  presentAll,
} from '../support/crafted-answers.js';
import { mdocQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { createHarness, type Harness } from '../support/harness.js';
import { PID_VCT } from '../support/issuers.js';
import { memberCall, ORG } from '../support/management.js';

// Presentation data at rest (README, Personal data): sealed with the
// organisation's data key, itself wrapped by KEY_ENCRYPTION_KEY. A dump of the
// verifier schema holds no claim value; reads open it; a rotation of
// KEY_ENCRYPTION_KEY keeps old data readable and moves the wrapping onto the
// new key; altered or swapped ciphertext is never returned.
const test = e2eTest();

const ORIGIN = 'https://rp.tessera.test';
/** Values no other fixture carries, so finding one anywhere means a claim leaked. */
const PID_CLAIMS = {
  given_name: 'Ottilie',
  family_name: 'Quaggenbusch',
  birth_date: '1971-03-29',
  address: { locality: 'Wuppertal-Vohwinkel' },
};
const PID_VALUES = ['Ottilie', 'Quaggenbusch', '1971-03-29', 'Wuppertal-Vohwinkel'];
/** The test mDL's elements (support/issuers.ts issueMdl). */
const MDL_VALUES = ['Mustermann', 'Erika'];
const pidQuery = { combine: 'all', credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] } }] };

async function verifiedSdJwt(e: E2e) {
  const session = await e.createSession({ dcql: pidQuery, responseMode: 'direct_post' });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(e.issuer, holder, { disclosable: PID_CLAIMS }))(holder, facts),
  );
  return { session, data: await expectVerified(e, session, answered) };
}

async function verifiedMdoc(e: E2e) {
  const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'dc_api.jwt', expectedOrigins: [ORIGIN] });
  const answered = await answerMdlOverDcApi(e, session, ORIGIN);
  expect(answered.status).toBe(200);
  return { session, answer: answered.body.data };
}

/** Every row of every table of the verifier schema, as text: what a dump or backup holds. */
async function dumpVerifierSchema(h: Harness): Promise<string> {
  const db = h.testDb.database.db;
  const tables = await runRawStatement<{ table_name: string }>(
    db,
    `select table_name from information_schema.tables where table_schema = 'verifier' and table_type = 'BASE TABLE'`,
    [],
  );
  const names = tables.map((row) => row.table_name);
  expect(names).toEqual(
    expect.arrayContaining(['presentation_sessions', 'presentation_results', 'data_keys', 'webhook_deliveries']),
  );
  const dumps: string[] = [];
  for (const name of names) {
    const rows = await runRawStatement<{ row: string }>(
      db,
      `select row_to_json(t)::text as row from "verifier"."${name}" t`,
      [],
    );
    dumps.push(...rows.map((row) => row.row));
  }
  return dumps.join('\n');
}

async function storedResult(h: Harness, sessionId: string) {
  const [row] = await h.testDb.database.db
    .select()
    .from(presentationResults)
    .where(eq(presentationResults.sessionId, sessionId));
  return row!;
}

describe('presentation data is sealed at rest', () => {
  test('after an SD-JWT VC and an mdoc verification, no claim value is anywhere in the verifier schema; reads still return the claims', async ({
    e2e: e,
    harness: h,
  }) => {
    const sdJwt = await verifiedSdJwt(e);
    expect(sdJwt.data.presentations[0]!.claims).toMatchObject(PID_CLAIMS);
    const mdoc = await verifiedMdoc(e);
    expect(JSON.stringify(mdoc.answer)).toContain('Mustermann');

    const dump = await dumpVerifierSchema(h);
    for (const value of [...PID_VALUES, ...MDL_VALUES]) expect(dump).not.toContain(value);
    // Control: the dump does hold these sessions, only sealed.
    expect(dump).toContain(sdJwt.session.id);
    const stored = await storedResult(h, sdJwt.session.id);
    expect(stored.presentations).toBeNull();
    expect(stored.sealedPresentations).toMatch(/^v1\./);

    // Reads open them (the relying party's read, again and again).
    for (const { id, expected } of [
      { id: sdJwt.session.id, expected: sdJwt.data.presentations },
      { id: mdoc.session.id, expected: mdoc.answer.presentations },
    ]) {
      const read = await e.readResult(id);
      expect(read.status).toBe(200);
      expect(read.body.data.presentations).toEqual(expected);
    }
  });

  test('one data key per organisation, wrapped by KEY_ENCRYPTION_KEY and bound to the organisation', async ({
    e2e: e,
    harness: h,
  }) => {
    await verifiedSdJwt(e);
    const stored = await findDataKey(h.testDb.database.db, { orgId: ORG });
    expect(stored).toBeDefined();
    expect(h.keyEncryptionKey.openBytes(stored!.wrappedKey, dataKeyContext(ORG))).toHaveLength(32);
    expect(() => h.keyEncryptionKey.openBytes(stored!.wrappedKey, dataKeyContext('another-org'))).toThrow(
      KeyDecryptionError,
    );
    expect(() =>
      new KeyEncryptionKey(generateKeyEncryptionKey()).openBytes(stored!.wrappedKey, dataKeyContext(ORG)),
    ).toThrow(KeyDecryptionError);
    const count = await runRawStatement<{ n: number }>(
      h.testDb.database.db,
      'select count(*)::int as n from "verifier"."data_keys" where org_id = $1',
      [ORG],
    );
    expect(count[0]!.n).toBe(1);
  });

  test('altered or swapped ciphertext is never returned: 500 PRESENTATION_DATA_UNREADABLE without the data', async ({
    e2e: e,
    harness: h,
  }) => {
    const db = h.testDb.database.db;
    const first = await verifiedSdJwt(e);
    const second = await verifiedSdJwt(e);
    const original = (await storedResult(h, first.session.id)).sealedPresentations!;

    // One character of the ciphertext changed.
    const flipped = `${original.slice(0, -3)}${original.at(-3) === 'A' ? 'B' : 'A'}${original.slice(-2)}`;
    await db
      .update(presentationResults)
      .set({ sealedPresentations: flipped })
      .where(eq(presentationResults.sessionId, first.session.id));
    const altered = await e.readResult(first.session.id);
    expect(altered.status).toBe(500);
    expect(altered.body).toMatchObject({ statusCode: 500, code: 'PRESENTATION_DATA_UNREADABLE' });
    for (const value of PID_VALUES) expect(JSON.stringify(altered.body)).not.toContain(value);

    // Another session's (valid) ciphertext copied over: bound to its session, it does not open here.
    const other = (await storedResult(h, second.session.id)).sealedPresentations!;
    await db
      .update(presentationResults)
      .set({ sealedPresentations: other })
      .where(eq(presentationResults.sessionId, first.session.id));
    expect((await e.readResult(first.session.id)).body.code).toBe('PRESENTATION_DATA_UNREADABLE');

    // Restored: readable again; the other session was never affected.
    await db
      .update(presentationResults)
      .set({ sealedPresentations: original })
      .where(eq(presentationResults.sessionId, first.session.id));
    expect((await e.readResult(first.session.id)).body.data.presentations).toEqual(first.data.presentations);
    expect((await e.readResult(second.session.id)).body.data.presentations).toEqual(second.data.presentations);
  });

  test('a row stored before sealing (plain JSON) is read as it is', async ({ e2e: e, harness: h }) => {
    const { session, data } = await verifiedSdJwt(e);
    await h.testDb.database.db
      .update(presentationResults)
      .set({ presentations: data.presentations, sealedPresentations: null, sealedCredentialSets: null })
      .where(eq(presentationResults.sessionId, session.id));
    const read = await e.readResult(session.id);
    expect(read.status).toBe(200);
    expect(read.body.data.presentations).toEqual(data.presentations);
  });
});

describe('KEY_ENCRYPTION_KEY rotation', () => {
  test('with the old key in KEY_ENCRYPTION_KEY_PREVIOUS old data stays readable, data keys are re-wrapped under the new key at start, new data keys use it', async ({
    e2e: e,
    harness: h,
  }) => {
    const before = await verifiedSdJwt(e);
    const oldKey = h.config.KEY_ENCRYPTION_KEY!;
    const newKey = generateKeyEncryptionKey();
    const db = h.testDb.database.db;
    const wrappedBefore = (await findDataKey(db, { orgId: ORG }))!.wrappedKey;

    // A replica started with the new key and the old one as previous (same database).
    const rotated = await createHarness({
      databaseUrl: h.testDb.url,
      config: { KEY_ENCRYPTION_KEY: newKey, KEY_ENCRYPTION_KEY_PREVIOUS: oldKey },
    });
    try {
      const wrappedAfter = (await findDataKey(db, { orgId: ORG }))!.wrappedKey;
      expect(wrappedAfter).not.toBe(wrappedBefore);
      // The same key bytes, now wrapped by the new key only.
      expect(new KeyEncryptionKey(newKey).openBytes(wrappedAfter, dataKeyContext(ORG))).toEqual(
        new KeyEncryptionKey(oldKey).openBytes(wrappedBefore, dataKeyContext(ORG)),
      );
      expect(() => new KeyEncryptionKey(oldKey).openBytes(wrappedAfter, dataKeyContext(ORG))).toThrow(
        KeyDecryptionError,
      );
      const read = await memberCall(rotated)(
        'GET',
        `/v1/orgs/${ORG}/oid4vp/verifier-presentation-response?verificationPresentationId=${before.session.id}`,
      );
      expect(read.status).toBe(200);
      expect(read.body.data.presentations).toEqual(before.data.presentations);

      // A data key created after the rotation is wrapped by the new key.
      const ring = createDataKeyRing({
        db: rotated.testDb.database.db,
        keyEncryptionKey: rotated.keyEncryptionKey,
        clock: () => new Date(),
      });
      await ring.dataKeyOf('org-after-rotation');
      const fresh = (await findDataKey(db, { orgId: 'org-after-rotation' }))!.wrappedKey;
      expect(new KeyEncryptionKey(newKey).openBytes(fresh, dataKeyContext('org-after-rotation'))).toHaveLength(32);
      expect(() => new KeyEncryptionKey(oldKey).openBytes(fresh, dataKeyContext('org-after-rotation'))).toThrow(
        KeyDecryptionError,
      );
    } finally {
      await rotated.close();
    }

    // Once every replica has started with the new key, the old one can go: a replica with the new key alone reads the old data.
    const newOnly = await createHarness({ databaseUrl: h.testDb.url, config: { KEY_ENCRYPTION_KEY: newKey } });
    try {
      const read = await memberCall(newOnly)(
        'GET',
        `/v1/orgs/${ORG}/oid4vp/verifier-presentation-response?verificationPresentationId=${before.session.id}`,
      );
      expect(read.status).toBe(200);
      expect(read.body.data.presentations).toEqual(before.data.presentations);
    } finally {
      await newOnly.close();
    }
  });

  test('KEY_ENCRYPTION_KEY_PREVIOUS must hold 32-byte base64 keys', async ({ harness: h }) => {
    const { loadVerifierConfig } = await import('../../src/config.js');
    const env = {
      NODE_ENV: 'test',
      PUBLIC_BASE_URL: 'https://verifier.tessera.test',
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      OIDC_ISSUER: h.config.OIDC_ISSUER,
      OIDC_AUDIENCE: h.config.OIDC_AUDIENCE,
      OIDC_JWKS_URI: h.config.OIDC_JWKS_URI,
    };
    expect(() => loadVerifierConfig({ ...env, KEY_ENCRYPTION_KEY_PREVIOUS: 'not-a-key' })).toThrow(
      /KEY_ENCRYPTION_KEY_PREVIOUS/,
    );
    expect(
      loadVerifierConfig({
        ...env,
        KEY_ENCRYPTION_KEY_PREVIOUS: `${generateKeyEncryptionKey()}, ${generateKeyEncryptionKey()}`,
      }).KEY_ENCRYPTION_KEY_PREVIOUS,
    ).toBeDefined();
  });
});
