import { describe, expect } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { validPidToken } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { presentPid } from '../support/holder.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { oid4vpPath as base, ORG } from '../support/management.js';
import {
  storedResults,
  storedSession,
  storedSigningKeys,
  storedTrustAnchors,
  storedVerifiers,
} from '../support/stored-rows.js';

// Races obey the sequential rules: exactly one winner, the others get the
// documented conflict, and the database holds no duplicate rows.
const N = 6;
const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest();

/** How many stored rows match: the database holds no duplicates. */
const rows = async <T>(stored: Promise<T[]>, matches: (row: T) => boolean) => (await stored).filter(matches).length;

describe('the first response wins', () => {
  test('several wallets answering one session at once: exactly one verifies, the others are refused, one event', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => validPidToken(e, session)));
    const results = await Promise.all(
      answers.map(({ vpToken }) =>
        e.postForm(session.responseUri!, { vp_token: JSON.stringify(vpToken), state: session.payloadState }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body?.error === 'invalid_request')).toHaveLength(5);
    await sessionEvents.waitFor(session.id, 'ResponseVerified');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sessionEvents.of(session.id, 'ResponseVerified')).toHaveLength(1);
  });

  test('over the DC API too: one 200, the rest 409 SESSION_CLOSED', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const answers = await Promise.all(Array.from({ length: 6 }, () => validPidToken(e, session, ORIGIN)));
    const results = await Promise.all(
      answers.map(({ vpToken }) =>
        e.verifyDcApi({
          verificationSessionId: session.id,
          authorizationResponse: { vp_token: vpToken },
          origin: ORIGIN,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'SESSION_CLOSED')).toHaveLength(5);
  });
});

// Needs a PostgreSQL server (PGlite runs one statement at a time).
describe.skipIf(missingServer('postgres', 'verifier concurrency'))('simultaneous writes (server PostgreSQL)', () => {
  test('simultaneous POST verifier with one verifierId: one 201, the rest 409 VERIFIER_EXISTS, one row', async ({
    harness: h,
    api,
  }) => {
    const results = await Promise.all(
      Array.from({ length: N }, () => api('POST', `${base()}/verifier`, { verifierId: 'racing-desk' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 201))
      expect({ status: loser.status, code: loser.body.code }).toEqual({ status: 409, code: 'VERIFIER_EXISTS' });
    expect(await rows(storedVerifiers(h.testDb.database, ORG), (row) => row.verifierId === 'racing-desk')).toBe(1);
  });

  test('simultaneous trust-anchor POSTs of one certificate: one 201, the rest 409 TRUST_ANCHOR_EXISTS, one row', async ({
    harness: h,
    api,
  }) => {
    const issuer = await createIssuer('Racing Issuer');
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api('POST', `${base()}/trust-anchors`, { certificatePem: issuer.ca.pem, label: `attempt ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 201))
      expect({ status: loser.status, code: loser.body.code }).toEqual({ status: 409, code: 'TRUST_ANCHOR_EXISTS' });
    const fingerprint = results.find((r) => r.status === 201)!.body.data.fingerprint;
    expect(await rows(storedTrustAnchors(h.testDb.database, ORG), (row) => row.fingerprint === fingerprint)).toBe(1);
  });

  test("simultaneous first uses of a new organisation's keys agree on one key per type", async ({
    harness: h,
    api,
  }) => {
    const org = 'org-first-use';
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api('GET', `${base(org)}/certificates/${i % 2 ? 'P256' : 'ED25519'}`, undefined, { org }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200));
    for (const keyType of ['P256', 'ED25519']) {
      const fingerprints = new Set(
        results.filter((r) => r.body.data.keyType === keyType).map((r) => r.body.data.fingerprint),
      );
      expect(fingerprints.size).toBe(1);
      expect(await rows(storedSigningKeys(h.testDb.database, org), (row) => row.keyType === keyType)).toBe(1);
    }
  });

  test('several wallets answering one session: one 200, the rest 400 invalid_request, one stored result', async ({
    harness: h,
    api,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const facts = {
      clientId: session.clientId,
      nonce: session.nonce,
      responseUri: session.responseUri!,
      responseMode: 'direct_post',
    };
    const answers = await Promise.all(
      Array.from({ length: N }, async () => {
        const holder = await newHolder();
        return JSON.stringify({ pid: [await presentPid(await issuePid(e.issuer, holder), holder, facts)] });
      }),
    );
    const results = await Promise.all(
      answers.map((vpToken) => e.postForm(session.responseUri!, { vp_token: vpToken, state: session.payloadState })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200))
      expect(loser).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.any(String) } });
    expect(await rows(storedResults(h.testDb.database, session.id), () => true)).toBe(1);
    const row = await storedSession(h.testDb.database, session.id);
    expect(row!.state).toBe('ResponseVerified');
  });

  test('deleting a verifier while sessions are created for it: either the delete wins (later creates 404) or it answers 409 VERIFIER_IN_USE', async ({
    api,
  }) => {
    expect((await api('POST', `${base()}/verifier`, { verifierId: 'contested' })).status).toBe(201);
    const creates = Array.from({ length: N }, () =>
      api('POST', `${base()}/presentation?verifierId=contested`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }),
    );
    const deleted = api('DELETE', `${base()}/verifier/contested`);
    const [del, ...made] = await Promise.all([deleted, ...creates]);
    for (const create of made) expect([201, 404], JSON.stringify(create.body)).toContain(create.status);
    const created = made.filter((r) => r.status === 201).map((r) => r.body.data.id as string);
    if (del.status === 200) {
      // No session may outlive its verifier: had one been created first, the delete would be VERIFIER_IN_USE.
      expect(created).toEqual([]);
    } else {
      expect({ status: del.status, code: del.body.code }).toEqual({ status: 409, code: 'VERIFIER_IN_USE' });
      expect(created.length).toBeGreaterThan(0);
    }
  });
});
