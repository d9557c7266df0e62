import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, type FuzzRoute } from '@tessera/service-kit/testing';
import { presentationResults, presentationSessions, signingKeys, trustAnchors, verificationTemplates, verifiers } from '../../src/db/schema.js';
import { createE2e, type E2e } from '../support/e2e.js';
import { ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { presentPid } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';

// Issue 7: tenant isolation across every organisation-scoped table. Organisation A
// (ORG) has a verifier, a template, sessions (one verified, one DC API), a trust
// anchor and signing keys; B has its own. With B's token, every route of the
// app's OpenAPI document under /v1/orgs/{orgId} is called with A's ids in B's
// path (404, or B's own data, never A's) and in A's path (403); A's rows never
// change. A route missing from ROUTES fails the test, so none can escape it.
const A = ORG;
const B = 'org-tenant-b';
const ORIGIN = 'https://rp.tessera.test';
const PREFIX = '/v1/orgs/{orgId}/oid4vp';

let e: E2e;
const ids = { verifierId: 'desk', templateId: '', sessionId: '', dcSessionId: '', anchorId: '', fingerprint: '' };

type Expect = 404 | 'own';
interface Plan {
  expect: Expect;
  query?: () => Record<string, string>;
  body?: () => unknown;
}

/** Every org-scoped route: with B's token in B's path and A's ids, what it must answer. */
const ROUTES: Record<string, Plan> = {
  'POST /verifier': { expect: 'own', body: () => ({ verifierId: ids.verifierId }) },
  'GET /verifier': { expect: 'own' },
  'GET /verifier/{verifierId}': { expect: 404 },
  'PUT /verifier/{verifierId}': { expect: 404, body: () => ({ clientMetadata: { client_name: 'Taken over' } }) },
  'DELETE /verifier/{verifierId}': { expect: 404 },
  'POST /verification-template': { expect: 'own', body: () => template('B template') },
  'GET /verification-template': { expect: 'own' },
  'GET /verification-template/{templateId}': { expect: 404 },
  'PUT /verification-template/{templateId}': { expect: 404, body: () => template('Taken over') },
  'DELETE /verification-template/{templateId}': { expect: 404 },
  'POST /presentation': { expect: 404, query: () => ({ verifierId: 'a-only-desk' }), body: () => ({ dcql: sdJwtQuery(), responseMode: 'direct_post' }) },
  'POST /intent-based-verification-presentation': { expect: 404, query: () => ({ verifierId: 'a-only-desk', ecosystemId: randomUUID() }), body: () => ({ intent: 'age-check', responseMode: 'direct_post' }) },
  'GET /verifier-presentation': { expect: 404, query: () => ({ id: ids.sessionId }) },
  'GET /verifier-presentation-response': { expect: 404, query: () => ({ verificationPresentationId: ids.sessionId }) },
  'POST /verify-authorization-response': { expect: 404, body: () => ({ verificationSessionId: ids.dcSessionId, authorizationResponse: { error: 'access_denied' }, origin: ORIGIN }) },
  'POST /trust-anchors': { expect: 'own', body: () => ({ certificatePem: e.issuer.ca.pem }) },
  'GET /trust-anchors': { expect: 'own' },
  'DELETE /trust-anchors/{id}': { expect: 404 },
  'GET /certificates/{keyType}': { expect: 'own' },
  'PUT /certificates/{keyType}': { expect: 'own', body: () => ({ certificateChainPem: 'not a chain', privateKeyPem: 'not a key' }) },
};

const template = (name: string) => ({ name, templateJson: { dcql: { query: sdJwtQuery() } }, signerOption: 'X509_P256' });

function requestFor(route: FuzzRoute, orgId: string, plan: Plan) {
  const values: Record<string, string> = { orgId, verifierId: 'a-only-desk', templateId: ids.templateId, id: ids.anchorId, keyType: 'P256' };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  const query = plan.query ? `?${new URLSearchParams(plan.query())}` : '';
  return { method: route.method, path: `${path}${query}`, body: plan.body?.() };
}

/** Every row of organisation A in every org-scoped table. */
async function snapshotA() {
  const db = e.h.testDb.database.db;
  return JSON.stringify([
    await db.select().from(verifiers).where(eq(verifiers.orgId, A)),
    await db.select().from(verificationTemplates).where(eq(verificationTemplates.orgId, A)),
    await db.select().from(presentationSessions).where(eq(presentationSessions.orgId, A)),
    await db.select().from(presentationResults).where(eq(presentationResults.orgId, A)),
    await db.select().from(trustAnchors).where(eq(trustAnchors.orgId, A)),
    await db.select().from(signingKeys).where(eq(signingKeys.orgId, A)),
  ]);
}

beforeAll(async () => {
  e = await createE2e();
  // A: createE2e made the verifier `desk` and a trust anchor; add another verifier B lacks, a template, sessions, keys.
  expect((await e.call('POST', `/v1/orgs/${A}/oid4vp/verifier`, { verifierId: 'a-only-desk' })).status).toBe(201);
  ids.templateId = (await e.call('POST', `/v1/orgs/${A}/oid4vp/verification-template`, template('A template'))).body.data.id;
  ids.anchorId = (await e.call('GET', `/v1/orgs/${A}/oid4vp/trust-anchors`)).body.data.data[0].id;
  ids.fingerprint = (await e.call('GET', `/v1/orgs/${A}/oid4vp/certificates/P256`)).body.data.fingerprint;
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  ids.sessionId = session.id;
  const holder = await newHolder();
  const vpToken = { pid: [await presentPid(await issuePid(e.issuer, holder), holder, { clientId: session.clientId, nonce: session.nonce, responseUri: session.responseUri, responseMode: 'direct_post' })] };
  expect((await e.postForm(session.responseUri, { vp_token: JSON.stringify(vpToken), state: session.payloadState })).status).toBe(200);
  ids.dcSessionId = (await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] })).id;
  // B: its own verifier with A's public verifierId, so "same name" never means "same resource".
  expect((await e.call('POST', `/v1/orgs/${B}/oid4vp/verifier`, { verifierId: 'desk' }, { org: B })).status).toBe(201);
}, 60000);
afterAll(() => e?.close());

async function orgRoutes(): Promise<FuzzRoute[]> {
  return (await listRoutes(e.h.app)).filter((route) => route.path.startsWith('/v1/orgs/'));
}

describe('tenant isolation (verifier)', () => {
  it('classifies every organisation-scoped route of the OpenAPI document', async () => {
    const documented = (await orgRoutes()).map((route) => `${route.method} ${route.path.slice(PREFIX.length)}`).sort();
    expect(documented).toEqual(Object.keys(ROUTES).sort());
  });

  it("B's owner with A's ids in B's path: 404 or B's own data, never A's; A's rows unchanged", async () => {
    const before = await snapshotA();
    const secrets = [ids.templateId, ids.sessionId, ids.dcSessionId, ids.anchorId, ids.fingerprint, 'a-only-desk', 'A template'];
    for (const route of await orgRoutes()) {
      const plan = ROUTES[`${route.method} ${route.path.slice(PREFIX.length)}`]!;
      const { method, path, body } = requestFor(route, B, plan);
      const response = await e.call(method, path, body, { org: B, roles: ['owner'] });
      const where = `${method} ${path} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
      if (plan.expect === 404) expect(response.status, where).toBe(404);
      else expect(response.status, where).toBeLessThan(500);
      // Nothing of A's beyond what the caller itself sent (a 404 may name the id it was asked for).
      const sent = `${path} ${JSON.stringify(body ?? null)}`;
      for (const secret of secrets.filter((value) => !sent.includes(value))) expect(JSON.stringify(response.body), where).not.toContain(secret);
    }
    expect(await snapshotA()).toBe(before);
    // The lists B sees hold only B's data, even filtered by A's values.
    const sessions = await e.call('GET', `/v1/orgs/${B}/oid4vp/verifier-presentation?publicVerifierId=desk`, undefined, { org: B });
    expect(sessions.body.data.totalItems).toBe(0);
  });

  it("B's owner in A's path: 403 on every route, A's rows unchanged", async () => {
    const before = await snapshotA();
    for (const route of await orgRoutes()) {
      const plan = ROUTES[`${route.method} ${route.path.slice(PREFIX.length)}`]!;
      const { method, path, body } = requestFor(route, A, plan);
      const response = await e.call(method, path, body, { org: B, roles: ['owner'] });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    expect(await snapshotA()).toBe(before);
    // A still sees its own: the verified result is there.
    expect((await e.readResult(ids.sessionId)).status).toBe(200);
  });
});
