import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness.js';
import { buildWorld, expectStatus, noticeBody, ORG, registerOrganisation, type World } from './support/world.js';

/** Callers in the order they are tried: the lead last, so its successful deletes cannot hide others' answers. */
const CALLERS = ['none', 'admin', 'outsider', 'invited', 'rejected', 'member', 'lead'] as const;
type Caller = (typeof CALLERS)[number];

interface Row {
  name: string;
  request: (caller: Caller) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown };
  /** Expected status per caller (ECOSYSTEM.md, Who may call what); `none` is always 401. */
  expected: Omit<Record<Caller, number>, 'none'>;
}

const adminOnly = (ok: number) => ({ admin: ok, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 403 });
const leadOnly = (ok: number) => ({ admin: 404, outsider: 404, invited: 403, rejected: 403, member: 403, lead: ok });
const leadAndMember = (ok: number) => ({ admin: 404, outsider: 404, invited: 403, rejected: 403, member: ok, lead: ok });
const everyone = (ok: number) => ({ admin: ok, outsider: ok, invited: ok, rejected: ok, member: ok, lead: ok });

describe('authorization matrix', () => {
  let h: Harness;
  let world: World;
  const ids = { intent: '', spareIntent: '', noticeless: '', template: '', spareTemplate: '' };

  beforeAll(async () => {
    h = await startHarness();
    world = await buildWorld(h);
    const lead = world.tokens.lead;
    await registerOrganisation(h, await h.sign({ sub: 'user-spare', email: 'spare@example.org', orgs: { 'org-spare-lead': ['owner'] } }), 'org-spare-lead', 'Spare');
    const make = async (name: string) =>
      (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: lead, body: { name, description: '' } })).body.data.id as string;
    ids.intent = await make('Age check');
    ids.spareIntent = await make('Spare');
    ids.noticeless = await make('Noticeless');
    const template = async (templateId: string, role: string) =>
      (await h.call('POST', `/v1/intent/${ids.intent}/template`, { token: lead, body: { templateId, role, orgId: ORG.member } })).body.data.id as string;
    ids.template = await template('tpl-main', 'issuer');
    ids.spareTemplate = (await h.call('POST', `/v1/intent/${ids.intent}/template`, { token: lead, body: { templateId: 'tpl-spare', role: 'issuer', orgId: ORG.lead } })).body.data.id;
    expect(ids.template).toBeTruthy();
    expectStatus(await h.call('POST', `/v1/intent/${ids.intent}/notice`, { token: lead, body: noticeBody() }), 201);
  });
  afterAll(() => h.close());

  const rows: Row[] = [
    { name: 'POST /v1/invitations', request: (c) => ({ method: 'POST', url: '/v1/invitations', body: { email: `${c}-next@example.org` } }), expected: adminOnly(201) },
    { name: 'GET /v1/invitations', request: () => ({ method: 'GET', url: '/v1/invitations' }), expected: adminOnly(200) },
    { name: 'GET /v1/ecosystem/dashboard/summary', request: () => ({ method: 'GET', url: '/v1/ecosystem/dashboard/summary' }), expected: adminOnly(200) },
    {
      name: 'POST /v1/ecosystem/{orgId}/create (lead org, invitation used)',
      request: () => ({ method: 'POST', url: `/v1/ecosystem/${ORG.lead}/create`, body: { name: 'Second', description: '' } }),
      expected: { admin: 403, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 403 },
    },
    {
      name: 'POST /v1/ecosystem/invite-member',
      request: () => ({ method: 'POST', url: '/v1/ecosystem/invite-member', body: { orgId: 'org-spare-lead', ecosystemId: world.ecosystemId } }),
      expected: leadOnly(201),
    },
    { name: 'GET /v1/ecosystem/members', request: () => ({ method: 'GET', url: `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}` }), expected: leadOnly(200) },
    {
      name: 'GET /v1/ecosystem/invitations (sent, by ecosystem)',
      request: () => ({ method: 'GET', url: `/v1/ecosystem/invitations?role=Ecosystem%20Lead&ecosystemId=${world.ecosystemId}` }),
      expected: leadOnly(200),
    },
    {
      name: 'GET /v1/ecosystem/invitations (received, by organisation)',
      request: () => ({ method: 'GET', url: `/v1/ecosystem/invitations?role=Ecosystem%20Member&orgId=${ORG.invited}` }),
      expected: { admin: 403, outsider: 403, invited: 200, rejected: 403, member: 403, lead: 403 },
    },
    {
      name: 'GET /v1/ecosystem/get-ecosystem-orgs',
      request: () => ({ method: 'GET', url: `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${world.ecosystemId}` }),
      expected: leadAndMember(200),
    },
    { name: 'GET /v1/ecosystem', request: () => ({ method: 'GET', url: '/v1/ecosystem' }), expected: everyone(200) },
    { name: 'GET /v1/ecosystem/status', request: () => ({ method: 'GET', url: '/v1/ecosystem/status' }), expected: everyone(200) },
    {
      name: 'PUT /v1/organisations/{orgId}',
      request: () => ({ method: 'PUT', url: `/v1/organisations/${ORG.lead}`, body: { name: 'Lead Org' } }),
      expected: { admin: 403, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 200 },
    },
    {
      name: 'POST /v1/intent/ecosystem/{ecosystemId}',
      request: (c) => ({ method: 'POST', url: `/v1/intent/ecosystem/${world.ecosystemId}`, body: { name: `by ${c}`, description: '' } }),
      expected: leadOnly(201),
    },
    { name: 'GET /v1/intent/ecosystem/{ecosystemId}', request: () => ({ method: 'GET', url: `/v1/intent/ecosystem/${world.ecosystemId}` }), expected: leadAndMember(200) },
    { name: 'GET /v1/intent/{intentId}', request: () => ({ method: 'GET', url: `/v1/intent/${ids.intent}` }), expected: leadAndMember(200) },
    {
      name: 'PUT /v1/intent/{intentId}',
      request: () => ({ method: 'PUT', url: `/v1/intent/${ids.intent}`, body: { name: 'Age check', description: 'Over 18' } }),
      expected: leadOnly(200),
    },
    { name: 'DELETE /v1/intent/{intentId}', request: () => ({ method: 'DELETE', url: `/v1/intent/${ids.spareIntent}` }), expected: leadOnly(200) },
    {
      name: 'POST /v1/intent/{intentId}/template',
      request: () => ({ method: 'POST', url: `/v1/intent/${ids.intent}/template`, body: { templateId: 'tpl-global', role: 'issuer' } }),
      expected: leadOnly(201),
    },
    { name: 'GET /v1/intent/{intentId}/template', request: () => ({ method: 'GET', url: `/v1/intent/${ids.intent}/template` }), expected: leadAndMember(200) },
    {
      name: 'PUT /v1/intent/{intentId}/template/{intentTemplateId}',
      request: () => ({ method: 'PUT', url: `/v1/intent/${ids.intent}/template/${ids.template}`, body: { role: 'issuer', description: 'Proof of age' } }),
      expected: leadOnly(200),
    },
    {
      name: 'DELETE /v1/intent/{intentId}/template/{intentTemplateId}',
      request: () => ({ method: 'DELETE', url: `/v1/intent/${ids.intent}/template/${ids.spareTemplate}` }),
      expected: leadOnly(200),
    },
    { name: 'POST /v1/intent/{intentId}/notice', request: () => ({ method: 'POST', url: `/v1/intent/${ids.noticeless}/notice`, body: noticeBody() }), expected: leadOnly(201) },
    { name: 'GET /v1/intent/{intentId}/notice', request: () => ({ method: 'GET', url: `/v1/intent/${ids.intent}/notice` }), expected: leadAndMember(200) },
    { name: 'PUT /v1/intent/{intentId}/notice', request: () => ({ method: 'PUT', url: `/v1/intent/${ids.intent}/notice`, body: noticeBody() }), expected: leadAndMember(200) },
    {
      // Last: the invited organisation's rejection changes its invitation (it stays "invited").
      name: 'POST /v1/ecosystem/update-invitation-status',
      request: () => ({ method: 'POST', url: '/v1/ecosystem/update-invitation-status', body: { status: 'rejected', ecosystemId: world.ecosystemId } }),
      expected: { admin: 404, outsider: 404, invited: 200, rejected: 409, member: 409, lead: 403 },
    },
  ];

  it.each(rows)('$name', async (row) => {
    const actual: Record<string, number> = {};
    for (const caller of CALLERS) {
      const { method, url, body } = row.request(caller);
      const token = caller === 'none' ? undefined : world.tokens[caller];
      actual[caller] = (await h.call(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) })).status;
    }
    expect(actual).toEqual({ none: 401, ...row.expected });
  });
});
