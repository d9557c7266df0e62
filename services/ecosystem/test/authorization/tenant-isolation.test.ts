import { describe, expect } from 'vitest';
import type { IntentTemplate } from '@tessera/contracts';
import { listRoutes, type CallResult, type FuzzRoute } from '@tessera/service-kit/testing';
import { makeCa } from '../support/certificates.js';
import { snapshotTenantData } from '../support/tenant-data.js';
import { harnessTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { noticeBody } from '../support/notice-body.js';
import type { Enveloped } from '../support/responses.js';
import { issuerBody, registerEntity } from '../support/trust-registry.js';
import { createIntentAsLead, ORG } from '../support/world.js';

// The owner of an organisation outside the ecosystem calls every route of the app's
// OpenAPI document with the ecosystem's ids: 404 for anything inside the ecosystem
// (ECOSYSTEM.md: outsiders may not learn it exists), 403 where the route names an
// organisation it has no role in or is platform-admin only; no answer carries the
// ecosystem's data, and no row of any table changes. A route missing from ROUTES fails the test.

/** Ids of the ecosystem the requests name. */
interface Place {
  ecosystemId: string;
  intent: string;
  template: string;
  entity: string;
  certificate: string;
  /** A certificate the registry has not seen. */
  newPem: string;
}

type Plan = { expect: number; url: (at: Place) => string; body?: (at: Place) => unknown };
const ROUTES: Record<string, Plan> = {
  'GET /v1/ecosystem/status': { expect: 200, url: () => '/v1/ecosystem/status' },
  'POST /v1/invitations': {
    expect: 403,
    url: () => '/v1/invitations',
    body: () => ({ email: 'outsider@example.org' }),
  },
  'GET /v1/invitations': { expect: 403, url: () => '/v1/invitations' },
  'GET /v1/ecosystem/dashboard/summary': { expect: 403, url: () => '/v1/ecosystem/dashboard/summary' },
  'POST /v1/ecosystem/{orgId}/create': {
    expect: 403,
    url: () => `/v1/ecosystem/${ORG.lead}/create`,
    body: () => ({ name: 'Hijacked', description: '' }),
  },
  'GET /v1/ecosystem': { expect: 403, url: () => `/v1/ecosystem?orgId=${ORG.lead}` },
  'POST /v1/ecosystem/invite-member': {
    expect: 404,
    url: () => '/v1/ecosystem/invite-member',
    body: (at) => ({ orgId: ORG.outsider, ecosystemId: at.ecosystemId }),
  },
  'GET /v1/ecosystem/invitations': {
    expect: 404,
    url: (at) => `/v1/ecosystem/invitations?role=Ecosystem%20Lead&ecosystemId=${at.ecosystemId}`,
  },
  'POST /v1/ecosystem/update-invitation-status': {
    expect: 404,
    url: () => '/v1/ecosystem/update-invitation-status',
    body: (at) => ({ status: 'accepted', ecosystemId: at.ecosystemId }),
  },
  'GET /v1/ecosystem/members': { expect: 404, url: (at) => `/v1/ecosystem/members?ecosystemId=${at.ecosystemId}` },
  'GET /v1/ecosystem/get-ecosystem-orgs': {
    expect: 404,
    url: (at) => `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${at.ecosystemId}`,
  },
  'GET /v1/ecosystem/{ecosystemId}': { expect: 404, url: (at) => `/v1/ecosystem/${at.ecosystemId}` },
  'GET /v1/organisations/{orgId}': { expect: 403, url: () => `/v1/organisations/${ORG.lead}` },
  'PUT /v1/organisations/{orgId}': {
    expect: 403,
    url: () => `/v1/organisations/${ORG.lead}`,
    body: () => ({ name: 'Hijacked' }),
  },
  'POST /v1/intent/ecosystem/{ecosystemId}': {
    expect: 404,
    url: (at) => `/v1/intent/ecosystem/${at.ecosystemId}`,
    body: () => ({ name: 'planted', description: '' }),
  },
  'GET /v1/intent/ecosystem/{ecosystemId}': { expect: 404, url: (at) => `/v1/intent/ecosystem/${at.ecosystemId}` },
  'GET /v1/intent/{intentId}': { expect: 404, url: (at) => `/v1/intent/${at.intent}` },
  'PUT /v1/intent/{intentId}': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}`,
    body: () => ({ name: 'Hijacked', description: '' }),
  },
  'DELETE /v1/intent/{intentId}': { expect: 404, url: (at) => `/v1/intent/${at.intent}` },
  'POST /v1/intent/{intentId}/template': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}/template`,
    body: () => ({ templateId: 'planted', role: 'issuer' }),
  },
  'GET /v1/intent/{intentId}/template': { expect: 404, url: (at) => `/v1/intent/${at.intent}/template` },
  'PUT /v1/intent/{intentId}/template/{intentTemplateId}': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}/template/${at.template}`,
    body: () => ({ role: 'issuer', description: 'Hijacked' }),
  },
  'DELETE /v1/intent/{intentId}/template/{intentTemplateId}': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}/template/${at.template}`,
  },
  'POST /v1/intent/{intentId}/notice': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}/notice`,
    body: () => noticeBody(),
  },
  'GET /v1/intent/{intentId}/notice': { expect: 404, url: (at) => `/v1/intent/${at.intent}/notice` },
  'PUT /v1/intent/{intentId}/notice': {
    expect: 404,
    url: (at) => `/v1/intent/${at.intent}/notice`,
    body: () => noticeBody({ title: 'Hijacked' }),
  },
  'POST /v1/ecosystem/{ecosystemId}/trusted-entities': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities`,
    body: (at) => issuerBody([at.newPem], { name: 'Planted' }),
  },
  'GET /v1/ecosystem/{ecosystemId}/trusted-entities': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities`,
  },
  'GET /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}`,
  },
  'PATCH /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}`,
    body: () => ({ name: 'Hijacked' }),
  },
  'POST /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/certificates': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/certificates`,
    body: (at) => ({ certificates: [{ pem: at.newPem }] }),
  },
  'DELETE /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/certificates/{certificateId}': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/certificates/${at.certificate}`,
  },
  'POST /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/status': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/status`,
    body: () => ({ status: 'withdrawn', reason: 'hijacked' }),
  },
  'GET /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/history': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/history`,
  },
  'GET /v1/ecosystem/{ecosystemId}/trust-list/visibility': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trust-list/visibility`,
  },
  'GET /v1/ecosystem/{ecosystemId}/trust-policy': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trust-policy`,
  },
  'PUT /v1/ecosystem/{ecosystemId}/trust-policy': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trust-policy`,
    body: () => ({ policy: 'ecosystem' }),
  },
  'PUT /v1/ecosystem/{ecosystemId}/trust-list/visibility': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trust-list/visibility`,
    body: () => ({ public: true }),
  },
  // The signed list is private by default: outsiders with a token learn nothing (404). The CA is public platform data.
  'GET /v1/ecosystem/{ecosystemId}/trust-list': {
    expect: 404,
    url: (at) => `/v1/ecosystem/${at.ecosystemId}/trust-list`,
  },
  'GET /v1/trust-list-ca.pem': { expect: 200, url: () => '/v1/trust-list-ca.pem' },
};

const test = harnessTest().extend('place', { scope: 'file' }, async ({ harness: h, world }): Promise<Place> => {
  const lead = world.tokens.lead;
  const intent = await createIntentAsLead(h, world, 'Age check', 'Secret purpose');
  const template: CallResult<Enveloped<IntentTemplate>> = await h.call('POST', `/v1/intent/${intent}/template`, {
    token: lead,
    body: { templateId: 'tpl-1', role: 'issuer' },
  });
  expect((await h.call('POST', `/v1/intent/${intent}/notice`, { token: lead, body: noticeBody() })).status).toBe(201);
  const entity = await registerEntity(
    h,
    world,
    issuerBody([(await makeCa('Isolated CA')).pem], { name: 'Isolated issuer' }),
  );
  return {
    ecosystemId: world.ecosystemId,
    intent,
    template: template.body.data.id,
    entity: entity.id,
    certificate: entity.certificates[0]!.id,
    newPem: (await makeCa('Planted CA')).pem,
  };
});

async function apiRoutes(h: Harness): Promise<FuzzRoute[]> {
  return (await listRoutes(h.app)).filter((route) => route.path.startsWith('/v1/'));
}

/** The request a plan makes in the ecosystem. */
function planned(plan: Plan, at: Place): { url: string; body: unknown } {
  return { url: plan.url(at), body: plan.body?.(at) };
}

describe('tenant isolation (ecosystem)', () => {
  test('classifies every route of the OpenAPI document', async ({ harness: h }) => {
    expect((await apiRoutes(h)).map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      Object.keys(ROUTES).sort(),
    );
  });

  test("an outsider organisation's owner with the ecosystem's ids: 404 inside the ecosystem, 403 elsewhere, nothing learned, nothing changed", async ({
    harness: h,
    world,
    place,
  }) => {
    const before = await snapshotTenantData(h);
    const secrets = [
      'Health Data Space',
      'Secret purpose',
      'Age check at the counter',
      'tpl-1',
      place.template,
      ORG.member,
      ORG.invited,
      'Isolated issuer',
      'Isolated CA',
      place.certificate,
    ];
    for (const route of await apiRoutes(h)) {
      const { url, body } = planned(ROUTES[`${route.method} ${route.path}`]!, place);
      const response = await h.call(route.method as 'GET', url, {
        token: world.tokens.outsider,
        ...(body !== undefined ? { body } : {}),
      });
      const where = `${route.method} ${url} → ${response.status} ${response.raw.slice(0, 200)}`;
      expect(response.status, where).toBe(ROUTES[`${route.method} ${route.path}`]!.expect);
      const sent = `${url} ${JSON.stringify(body ?? null)}`;
      for (const secret of secrets.filter((value) => !sent.includes(value)))
        expect(response.raw, where).not.toContain(secret);
    }
    expect(await snapshotTenantData(h)).toEqual(before);
    // The outsider's own view: no ecosystem at all.
    const own = await h.call('GET', '/v1/ecosystem', { token: world.tokens.outsider });
    expect(own.status).toBe(200);
    expect(own.raw).not.toContain(world.ecosystemId);
  });

  test('the same holds for a user with no organisation and for a lead of another ecosystem', async ({
    harness: h,
    world,
    place,
  }) => {
    const otherLead = await h.idp.mint({
      sub: 'user-other-lead',
      email: 'other-lead@example.org',
      orgRoles: { 'org-other-lead': ['owner'] },
    });
    expect(
      (await h.call('PUT', '/v1/organisations/org-other-lead', { token: otherLead, body: { name: 'Other lead' } }))
        .status,
    ).toBeLessThan(300);
    expect(
      (
        await h.call('POST', '/v1/invitations', {
          token: world.tokens.admin,
          body: { email: 'other-lead@example.org' },
        })
      ).status,
    ).toBe(201);
    const otherSpace = await h.call('POST', '/v1/ecosystem/org-other-lead/create', {
      token: otherLead,
      body: { name: 'Other space', description: '' },
    });
    expect(otherSpace.status).toBe(201);
    const before = await snapshotTenantData(h);
    for (const token of [world.tokens.nobody, otherLead]) {
      for (const route of await apiRoutes(h)) {
        const plan = ROUTES[`${route.method} ${route.path}`]!;
        if (plan.expect !== 404) continue;
        const { url, body } = planned(plan, place);
        const response = await h.call(route.method as 'GET', url, { token, ...(body !== undefined ? { body } : {}) });
        expect(response.status, `${route.method} ${url}`).toBe(404);
      }
    }
    // The other lead names this ecosystem's entity under its own ecosystem: not found there either.
    const otherId = otherSpace.body.data.id as string;
    for (const [method, url, body] of [
      ['GET', `/v1/ecosystem/${otherId}/trusted-entities/${place.entity}`, undefined],
      ['PATCH', `/v1/ecosystem/${otherId}/trusted-entities/${place.entity}`, { name: 'Hijacked' }],
      [
        'POST',
        `/v1/ecosystem/${otherId}/trusted-entities/${place.entity}/status`,
        { status: 'withdrawn', reason: 'hijacked' },
      ],
      [
        'DELETE',
        `/v1/ecosystem/${otherId}/trusted-entities/${place.entity}/certificates/${place.certificate}`,
        undefined,
      ],
      ['GET', `/v1/ecosystem/${otherId}/trusted-entities/${place.entity}/history`, undefined],
    ] as const) {
      const response = await h.call(method, url, { token: otherLead, ...(body ? { body } : {}) });
      expect({ status: response.status, code: response.body.code }, `${method} ${url}`).toEqual({
        status: 404,
        code: 'TRUSTED_ENTITY_NOT_FOUND',
      });
    }
    expect(await snapshotTenantData(h)).toEqual(before);
  });
});
