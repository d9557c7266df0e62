import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingServer } from '@tessera/service-kit/testing';
import { presentationResults, presentationSessions, signingKeys, trustAnchors, verifiers } from '../../src/db/schema.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { presentPid } from '../support/holder.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';

// Issue 7, concurrency: races obey the sequential rules. Exactly one winner, the
// others get the documented conflict, and the database holds no duplicate rows.
// Needs a PostgreSQL server (PGlite runs one statement at a time).
const N = 6;
describe.skipIf(missingServer('postgres', 'verifier concurrency (hardening)'))('verifier concurrency', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await createE2e();
  });
  afterAll(() => e?.close());

  const base = (org = ORG) => `/v1/orgs/${org}/oid4vp`;
  const rows = async (table: typeof verifiers | typeof trustAnchors | typeof signingKeys | typeof presentationResults, where: ReturnType<typeof eq>) =>
    (await e.h.testDb.database.db.select({ value: count() }).from(table).where(where))[0]!.value;

  it('simultaneous POST verifier with one verifierId: one 201, the rest 409 VERIFIER_EXISTS, one row', async () => {
    const results = await Promise.all(Array.from({ length: N }, () => e.call('POST', `${base()}/verifier`, { verifierId: 'racing-desk' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 201)) expect({ status: loser.status, code: loser.body.code }).toEqual({ status: 409, code: 'VERIFIER_EXISTS' });
    expect(await rows(verifiers, and(eq(verifiers.orgId, ORG), eq(verifiers.verifierId, 'racing-desk'))!)).toBe(1);
  });

  it('simultaneous trust-anchor POSTs of one certificate: one 201, the rest 409 TRUST_ANCHOR_EXISTS, one row', async () => {
    const issuer = await createIssuer('Racing Issuer');
    const results = await Promise.all(Array.from({ length: N }, (_, i) => e.call('POST', `${base()}/trust-anchors`, { certificatePem: issuer.ca.pem, label: `attempt ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 201)) expect({ status: loser.status, code: loser.body.code }).toEqual({ status: 409, code: 'TRUST_ANCHOR_EXISTS' });
    const fingerprint = results.find((r) => r.status === 201)!.body.data.fingerprint;
    expect(await rows(trustAnchors, and(eq(trustAnchors.orgId, ORG), eq(trustAnchors.fingerprint, fingerprint))!)).toBe(1);
  });

  it("simultaneous first uses of a new organisation's keys agree on one key per type", async () => {
    const org = 'org-first-use';
    const results = await Promise.all(Array.from({ length: N }, (_, i) => e.call('GET', `${base(org)}/certificates/${i % 2 ? 'P256' : 'ED25519'}`, undefined, { org })));
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200));
    for (const keyType of ['P256', 'ED25519']) {
      const fingerprints = new Set(results.filter((r) => r.body.data.keyType === keyType).map((r) => r.body.data.fingerprint));
      expect(fingerprints.size).toBe(1);
      expect(await rows(signingKeys, and(eq(signingKeys.orgId, org), eq(signingKeys.keyType, keyType))!)).toBe(1);
    }
  });

  it('several wallets answering one session: one 200, the rest 400 invalid_request, one stored result', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const facts = { clientId: session.clientId, nonce: session.nonce, responseUri: session.responseUri, responseMode: 'direct_post' };
    const answers = await Promise.all(
      Array.from({ length: N }, async () => {
        const holder = await newHolder();
        return JSON.stringify({ pid: [await presentPid(await issuePid(e.issuer, holder), holder, facts)] });
      }),
    );
    const results = await Promise.all(answers.map((vpToken) => e.postForm(session.responseUri, { vp_token: vpToken, state: session.payloadState })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expect(loser).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.any(String) } });
    expect(await rows(presentationResults, eq(presentationResults.sessionId, session.id))).toBe(1);
    const [row] = await e.h.testDb.database.db.select().from(presentationSessions).where(eq(presentationSessions.id, session.id));
    expect(row!.state).toBe('ResponseVerified');
  });

  it('deleting a verifier while sessions are created for it: either the delete wins (later creates 404) or it answers 409 VERIFIER_IN_USE', async () => {
    expect((await e.call('POST', `${base()}/verifier`, { verifierId: 'contested' })).status).toBe(201);
    const creates = Array.from({ length: N }, () => e.call('POST', `${base()}/presentation?verifierId=contested`, { dcql: sdJwtQuery(), responseMode: 'direct_post' }));
    const deleted = e.call('DELETE', `${base()}/verifier/contested`);
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
