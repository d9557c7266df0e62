import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { listRoutes, type FuzzRoute, type HttpMethod } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { presentPid } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { organisationRows } from '../support/stored-rows.js';

// Tenant isolation across every organisation-scoped table. Organisation A (ORG)
// has a verifier, a template, sessions (one verified, one DC API), a trust anchor
// and signing keys; B has its own. With B's token, every route of the app's
// OpenAPI document under /v1/orgs/{orgId} is called with A's ids in B's path
// (404, or B's own data, never A's) and in A's path (403); A's rows never change.
// A route missing from ROUTES fails the test, so none can escape it.
const A = ORG;
const B = 'org-tenant-b';
const ORIGIN = 'https://rp.tessera.test';
const PREFIX = '/v1/orgs/{orgId}/oid4vp';

/** A's resources, and the PEM of the issuer CA A trusts. */
interface TenantA {
  verifierId: string;
  templateId: string;
  sessionId: string;
  dcSessionId: string;
  anchorId: string;
  fingerprint: string;
  readerFingerprint: string;
  issuerCaPem: string;
  /** A's pending certificate signing request. */
  csrKeyId: string;
}

type Expect = 404 | 'own';
interface Plan {
  expect: Expect;
  query?: (a: TenantA) => Record<string, string>;
  body?: (a: TenantA) => unknown;
}

const template = (name: string) => ({
  name,
  templateJson: { dcql: { query: sdJwtQuery() } },
  signerOption: 'X509_P256',
});

/** Every org-scoped route: with B's token in B's path and A's ids, what it must answer. */
const ROUTES: Record<string, Plan> = {
  'POST /verifier': { expect: 'own', body: (a) => ({ verifierId: a.verifierId }) },
  'GET /verifier': { expect: 'own' },
  'GET /verifier/{verifierId}': { expect: 404 },
  'PUT /verifier/{verifierId}': { expect: 404, body: () => ({ clientMetadata: { client_name: 'Taken over' } }) },
  'PATCH /verifier/{verifierId}': { expect: 404, body: () => ({ clientMetadata: { client_name: 'Taken over' } }) },
  'DELETE /verifier/{verifierId}': { expect: 404 },
  'POST /verification-template': { expect: 'own', body: () => template('B template') },
  'GET /verification-template': { expect: 'own' },
  'GET /verification-template/{templateId}': { expect: 404 },
  'PUT /verification-template/{templateId}': { expect: 404, body: () => template('Taken over') },
  'DELETE /verification-template/{templateId}': { expect: 404 },
  'POST /presentation': {
    expect: 404,
    query: () => ({ verifierId: 'a-only-desk' }),
    body: () => ({ dcql: sdJwtQuery(), responseMode: 'direct_post' }),
  },
  'POST /intent-based-verification-presentation': {
    expect: 404,
    query: () => ({ verifierId: 'a-only-desk', ecosystemId: randomUUID() }),
    body: () => ({ intent: 'age-check', responseMode: 'direct_post' }),
  },
  'GET /verifier-presentation': { expect: 404, query: (a) => ({ id: a.sessionId }) },
  // A 404 comes as JSON before any stream (app.inject cannot stream, so a 200 here would hang the test).
  'GET /verifier-presentation-events': { expect: 404, query: (a) => ({ id: a.sessionId }) },
  'GET /verifier-presentation-response': { expect: 404, query: (a) => ({ verificationPresentationId: a.sessionId }) },
  'GET /verifier-presentation-reads': { expect: 404, query: (a) => ({ id: a.sessionId }) },
  'POST /verify-authorization-response': {
    expect: 404,
    body: (a) => ({
      verificationSessionId: a.dcSessionId,
      authorizationResponse: { error: 'access_denied' },
      origin: ORIGIN,
    }),
  },
  'POST /trust-anchors': { expect: 'own', body: (a) => ({ certificatePem: a.issuerCaPem }) },
  'GET /trust-anchors': { expect: 'own' },
  'DELETE /trust-anchors/{id}': { expect: 404 },
  'GET /certificates/{keyType}': { expect: 'own' },
  'GET /certificates': { expect: 'own' },
  'POST /certificates/{keyType}/csr': {
    expect: 'own',
    body: () => ({
      subject: { commonName: 'B', organizationName: 'B GmbH', organizationIdentifier: 'VATDE-222', countryName: 'DE' },
    }),
  },
  'PUT /verifier/{verifierId}/registration-certificate': {
    expect: 404,
    body: () => ({ registrationCertificate: 'eyJ0eXAiOiJyYy13cnArand0In0.e30.c2ln' }),
  },
  'GET /verifier/{verifierId}/registration-certificate': { expect: 404 },
  'DELETE /verifier/{verifierId}/registration-certificate': { expect: 404 },
  'PUT /certificates/{keyType}': {
    expect: 'own',
    body: () => ({ certificateChainPem: 'not a chain', privateKeyPem: 'not a key' }),
  },
  'GET /certificates/READER': { expect: 'own' },
  'PUT /certificates/READER': { expect: 'own', body: () => ({ certificateChainPem: 'not a chain' }) },
  'PUT /verifier/{verifierId}/webhook': {
    expect: 404,
    body: () => ({ url: 'https://taken-over.example/hooks', events: ['presentation.verified'] }),
  },
  'GET /verifier/{verifierId}/webhook': { expect: 404 },
  'DELETE /verifier/{verifierId}/webhook': { expect: 404 },
  'POST /verifier/{verifierId}/webhook/rotate-secret': { expect: 404 },
  'GET /verifier/{verifierId}/webhook/deliveries': { expect: 404 },
  'POST /verifier/{verifierId}/webhook/deliveries/{deliveryId}/redeliver': { expect: 404 },
};

function requestFor(route: FuzzRoute, orgId: string, plan: Plan, a: TenantA) {
  const values: Record<string, string> = {
    orgId,
    verifierId: 'a-only-desk',
    templateId: a.templateId,
    id: a.anchorId,
    keyType: 'P256',
    deliveryId: randomUUID(),
  };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  const query = plan.query ? `?${new URLSearchParams(plan.query(a))}` : '';
  return { method: route.method as HttpMethod, path: `${path}${query}`, body: plan.body?.(a) };
}

/** Every row of organisation A in every org-scoped table (isolation is a property of what is stored). */
function snapshotA(h: Harness) {
  return organisationRows(h.testDb.database, A);
}

async function orgRoutes(h: Harness): Promise<FuzzRoute[]> {
  return (await listRoutes(h.app)).filter((route) => route.path.startsWith('/v1/orgs/'));
}

const test = e2eTest().extend('tenantA', { scope: 'file' }, async ({ api, desk, e2e: e }): Promise<TenantA> => {
  // A: the e2e setting made the verifier `desk` and a trust anchor; add another verifier B lacks, a template, sessions, keys.
  expect((await api('POST', `/v1/orgs/${A}/oid4vp/verifier`, { verifierId: 'a-only-desk' })).status).toBe(201);
  const templateId = (await api('POST', `/v1/orgs/${A}/oid4vp/verification-template`, template('A template'))).body.data
    .id;
  const anchorId = (await api('GET', `/v1/orgs/${A}/oid4vp/trust-anchors`)).body.data.data[0].id;
  const fingerprint = (await api('GET', `/v1/orgs/${A}/oid4vp/certificates/P256`)).body.data.fingerprint;
  const readerFingerprint = (await api('GET', `/v1/orgs/${A}/oid4vp/certificates/READER`)).body.data.fingerprint;
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const vpToken = {
    pid: [
      await presentPid(await issuePid(e.issuer, holder), holder, {
        clientId: session.clientId,
        nonce: session.nonce,
        responseUri: session.responseUri!,
        responseMode: 'direct_post',
      }),
    ],
  };
  expect(
    (await e.postForm(session.responseUri!, { vp_token: JSON.stringify(vpToken), state: session.payloadState })).status,
  ).toBe(200);
  const dcSessionId = (await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] }))
    .id;
  // A's verifier a-only-desk has a webhook (none of its sessions ends here, so nothing is sent).
  expect(
    (
      await api(
        'PUT',
        `/v1/orgs/${A}/oid4vp/verifier/a-only-desk/webhook`,
        { url: 'https://rp-a.example/hooks', events: ['presentation.verified'] },
        { roles: ['admin'] },
      )
    ).status,
  ).toBe(201);
  // A's pending certificate signing request (its key never shown to anyone).
  const csr = await api(
    'POST',
    `/v1/orgs/${A}/oid4vp/certificates/P256/csr`,
    {
      subject: { commonName: 'A', organizationName: 'A GmbH', organizationIdentifier: 'VATDE-111', countryName: 'DE' },
    },
    { roles: ['owner'] },
  );
  expect(csr.status, csr.raw).toBe(201);
  // B: its own verifier with A's public verifierId, so "same name" never means "same resource".
  expect((await api('POST', `/v1/orgs/${B}/oid4vp/verifier`, { verifierId: desk }, { org: B })).status).toBe(201);
  return {
    verifierId: desk,
    templateId,
    sessionId: session.id,
    dcSessionId,
    anchorId,
    fingerprint,
    readerFingerprint,
    issuerCaPem: e.issuer.ca.pem,
    csrKeyId: csr.body.data.keyId,
  };
});

describe('tenant isolation (verifier)', () => {
  test('classifies every organisation-scoped route of the OpenAPI document', async ({ harness: h }) => {
    const documented = (await orgRoutes(h)).map((route) => `${route.method} ${route.path.slice(PREFIX.length)}`).sort();
    expect(documented).toEqual(Object.keys(ROUTES).sort());
  });

  test(
    "B's owner with A's ids in B's path: 404 or B's own data, never A's; A's rows unchanged",
    { timeout: 60000 },
    async ({ harness: h, api, tenantA: a }) => {
      const before = await snapshotA(h);
      const secrets = [
        a.templateId,
        a.sessionId,
        a.dcSessionId,
        a.anchorId,
        a.fingerprint,
        a.readerFingerprint,
        a.csrKeyId,
        'a-only-desk',
        'A template',
        'rp-a.example',
        'whsec_',
      ];
      for (const route of await orgRoutes(h)) {
        const plan = ROUTES[`${route.method} ${route.path.slice(PREFIX.length)}`]!;
        const { method, path, body } = requestFor(route, B, plan, a);
        const response = await api(method, path, body, { org: B, roles: ['owner'] });
        const where = `${method} ${path} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
        if (plan.expect === 404) expect(response.status, where).toBe(404);
        else expect(response.status, where).toBeLessThan(500);
        // Nothing of A's beyond what the caller itself sent (a 404 may name the id it was asked for).
        const sent = `${path} ${JSON.stringify(body ?? null)}`;
        for (const secret of secrets.filter((value) => !sent.includes(value)))
          expect(JSON.stringify(response.body), where).not.toContain(secret);
      }
      expect(await snapshotA(h)).toBe(before);
      // The lists B sees hold only B's data, even filtered by A's values.
      const sessions = await api('GET', `/v1/orgs/${B}/oid4vp/verifier-presentation?publicVerifierId=desk`, undefined, {
        org: B,
      });
      expect(sessions.body.data.totalItems).toBe(0);
    },
  );

  test(
    "B's owner in A's path: 403 on every route, A's rows unchanged",
    { timeout: 60000 },
    async ({ harness: h, api, e2e, tenantA: a }) => {
      const before = await snapshotA(h);
      for (const route of await orgRoutes(h)) {
        const plan = ROUTES[`${route.method} ${route.path.slice(PREFIX.length)}`]!;
        const { method, path, body } = requestFor(route, A, plan, a);
        const response = await api(method, path, body, { org: B, roles: ['owner'] });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.code).toBe('FORBIDDEN');
      }
      expect(await snapshotA(h)).toBe(before);
      // A still sees its own: the verified result is there.
      expect((await e2e.readResult(a.sessionId)).status).toBe(200);
    },
  );
});
