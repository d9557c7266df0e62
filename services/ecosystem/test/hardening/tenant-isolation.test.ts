import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, snapshotSchema, type FuzzRoute } from '@tessera/service-kit/testing';
import { startHarness, type Harness } from '../support/harness.js';
import { buildWorld, noticeBody, ORG, type World } from '../support/world.js';

// Issue 7: tenant isolation. The owner of an organisation outside the ecosystem
// calls every route of the app's OpenAPI document with the ecosystem's ids:
// 404 for anything inside the ecosystem (ECOSYSTEM.md: outsiders may not learn it
// exists), 403 where the route names an organisation it has no role in or is
// platform-admin only; no answer carries the ecosystem's data, and no row of any
// table changes. A route missing from ROUTES fails the test.
let h: Harness;
let world: World;
const ids = { intent: '', template: '' };

type Plan = { expect: number; url: () => string; body?: () => unknown };
const ROUTES: Record<string, Plan> = {
  'GET /v1/ecosystem/status': { expect: 200, url: () => '/v1/ecosystem/status' },
  'POST /v1/invitations': { expect: 403, url: () => '/v1/invitations', body: () => ({ email: 'outsider@example.org' }) },
  'GET /v1/invitations': { expect: 403, url: () => '/v1/invitations' },
  'GET /v1/ecosystem/dashboard/summary': { expect: 403, url: () => '/v1/ecosystem/dashboard/summary' },
  'POST /v1/ecosystem/{orgId}/create': { expect: 403, url: () => `/v1/ecosystem/${ORG.lead}/create`, body: () => ({ name: 'Hijacked', description: '' }) },
  'GET /v1/ecosystem': { expect: 403, url: () => `/v1/ecosystem?orgId=${ORG.lead}` },
  'POST /v1/ecosystem/invite-member': { expect: 404, url: () => '/v1/ecosystem/invite-member', body: () => ({ orgId: ORG.outsider, ecosystemId: world.ecosystemId }) },
  'GET /v1/ecosystem/invitations': { expect: 404, url: () => `/v1/ecosystem/invitations?role=Ecosystem%20Lead&ecosystemId=${world.ecosystemId}` },
  'POST /v1/ecosystem/update-invitation-status': { expect: 404, url: () => '/v1/ecosystem/update-invitation-status', body: () => ({ status: 'accepted', ecosystemId: world.ecosystemId }) },
  'GET /v1/ecosystem/members': { expect: 404, url: () => `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}` },
  'GET /v1/ecosystem/get-ecosystem-orgs': { expect: 404, url: () => `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${world.ecosystemId}` },
  'PUT /v1/organisations/{orgId}': { expect: 403, url: () => `/v1/organisations/${ORG.lead}`, body: () => ({ name: 'Hijacked' }) },
  'POST /v1/intent/ecosystem/{ecosystemId}': { expect: 404, url: () => `/v1/intent/ecosystem/${world.ecosystemId}`, body: () => ({ name: 'planted', description: '' }) },
  'GET /v1/intent/ecosystem/{ecosystemId}': { expect: 404, url: () => `/v1/intent/ecosystem/${world.ecosystemId}` },
  'GET /v1/intent/{intentId}': { expect: 404, url: () => `/v1/intent/${ids.intent}` },
  'PUT /v1/intent/{intentId}': { expect: 404, url: () => `/v1/intent/${ids.intent}`, body: () => ({ name: 'Hijacked', description: '' }) },
  'DELETE /v1/intent/{intentId}': { expect: 404, url: () => `/v1/intent/${ids.intent}` },
  'POST /v1/intent/{intentId}/template': { expect: 404, url: () => `/v1/intent/${ids.intent}/template`, body: () => ({ templateId: 'planted', role: 'issuer' }) },
  'GET /v1/intent/{intentId}/template': { expect: 404, url: () => `/v1/intent/${ids.intent}/template` },
  'PUT /v1/intent/{intentId}/template/{intentTemplateId}': { expect: 404, url: () => `/v1/intent/${ids.intent}/template/${ids.template}`, body: () => ({ role: 'issuer', description: 'Hijacked' }) },
  'DELETE /v1/intent/{intentId}/template/{intentTemplateId}': { expect: 404, url: () => `/v1/intent/${ids.intent}/template/${ids.template}` },
  'POST /v1/intent/{intentId}/notice': { expect: 404, url: () => `/v1/intent/${ids.intent}/notice`, body: () => noticeBody() },
  'GET /v1/intent/{intentId}/notice': { expect: 404, url: () => `/v1/intent/${ids.intent}/notice` },
  'PUT /v1/intent/{intentId}/notice': { expect: 404, url: () => `/v1/intent/${ids.intent}/notice`, body: () => noticeBody({ title: 'Hijacked' }) },
};

beforeAll(async () => {
  h = await startHarness();
  world = await buildWorld(h);
  const lead = world.tokens.lead;
  ids.intent = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: lead, body: { name: 'Age check', description: 'Secret purpose' } })).body.data.id;
  ids.template = (await h.call('POST', `/v1/intent/${ids.intent}/template`, { token: lead, body: { templateId: 'tpl-1', role: 'issuer' } })).body.data.id;
  expect((await h.call('POST', `/v1/intent/${ids.intent}/notice`, { token: lead, body: noticeBody() })).status).toBe(201);
});
afterAll(() => h?.close());

async function apiRoutes(): Promise<FuzzRoute[]> {
  return (await listRoutes(h.app)).filter((route) => route.path.startsWith('/v1/'));
}

describe('tenant isolation (ecosystem)', () => {
  it('classifies every route of the OpenAPI document', async () => {
    expect((await apiRoutes()).map((route) => `${route.method} ${route.path}`).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it("an outsider organisation's owner with the ecosystem's ids: 404 inside the ecosystem, 403 elsewhere, nothing learned, nothing changed", async () => {
    const before = await snapshotSchema(h.testDb.database, 'ecosystem');
    const secrets = ['Health Data Space', 'Secret purpose', 'Age check at the counter', 'tpl-1', ids.template, ORG.member, ORG.invited];
    for (const route of await apiRoutes()) {
      const plan = ROUTES[`${route.method} ${route.path}`]!;
      const url = plan.url();
      const body = plan.body?.();
      const response = await h.call(route.method as 'GET', url, { token: world.tokens.outsider, ...(body !== undefined ? { body } : {}) });
      const where = `${route.method} ${url} → ${response.status} ${response.raw.slice(0, 200)}`;
      expect(response.status, where).toBe(plan.expect);
      const sent = `${url} ${JSON.stringify(body ?? null)}`;
      for (const secret of secrets.filter((value) => !sent.includes(value))) expect(response.raw, where).not.toContain(secret);
    }
    expect(await snapshotSchema(h.testDb.database, 'ecosystem')).toEqual(before);
    // The outsider's own view: no ecosystem at all.
    const own = await h.call('GET', '/v1/ecosystem', { token: world.tokens.outsider });
    expect(own.status).toBe(200);
    expect(own.raw).not.toContain(world.ecosystemId);
  });

  it('the same holds for a user with no organisation and for a lead of another ecosystem', async () => {
    const otherLead = await h.sign({ sub: 'user-other-lead', email: 'other-lead@example.org', orgs: { 'org-other-lead': ['owner'] } });
    expect((await h.call('PUT', '/v1/organisations/org-other-lead', { token: otherLead, body: { name: 'Other lead' } })).status).toBeLessThan(300);
    expect((await h.call('POST', '/v1/invitations', { token: world.tokens.admin, body: { email: 'other-lead@example.org' } })).status).toBe(201);
    expect((await h.call('POST', '/v1/ecosystem/org-other-lead/create', { token: otherLead, body: { name: 'Other space', description: '' } })).status).toBe(201);
    const before = await snapshotSchema(h.testDb.database, 'ecosystem');
    for (const token of [world.tokens.nobody, otherLead]) {
      for (const route of await apiRoutes()) {
        const plan = ROUTES[`${route.method} ${route.path}`]!;
        if (plan.expect !== 404) continue;
        const body = plan.body?.();
        const response = await h.call(route.method as 'GET', plan.url(), { token, ...(body !== undefined ? { body } : {}) });
        expect(response.status, `${route.method} ${plan.url()}`).toBe(404);
      }
    }
    expect(await snapshotSchema(h.testDb.database, 'ecosystem')).toEqual(before);
  });
});
