import { describe, expect } from 'vitest';
import type { IntentTemplate } from '@tessera/contracts';
import type { CallResult } from '@tessera/service-kit/testing';
import { makeCa } from '../support/certificates.js';
import { harnessTest } from '../support/fixtures.js';
import { noticeBody } from '../support/notice-body.js';
import { expectStatus, type Enveloped } from '../support/responses.js';
import { issuerBody, registerEntity } from '../support/trust-registry.js';
import { createIntentAsLead, ORG, registerOrganisation } from '../support/world.js';

/** Callers in the order they are tried: the lead last, so its successful deletes cannot hide others' answers. */
const CALLERS = ['none', 'admin', 'outsider', 'invited', 'rejected', 'member', 'lead'] as const;
type Caller = (typeof CALLERS)[number];

/** Ids of the world the requests name. */
interface Place {
  ecosystemId: string;
  intent: string;
  spareIntent: string;
  noticeless: string;
  template: string;
  spareTemplate: string;
  /** A trusted entity, a certificate of it the lead may retire, and unused certificates to register and add. */
  entity: string;
  spareCertificate: string;
  newPems: { create: string; add: string };
}

interface Row {
  name: string;
  request: (
    caller: Caller,
    at: Place,
  ) => { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: unknown };
  /** Expected status per caller (ECOSYSTEM.md, Who may call what); `none` is always 401. */
  expected: Omit<Record<Caller, number>, 'none'>;
}

const adminOnly = (ok: number) => ({ admin: ok, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 403 });
const leadOnly = (ok: number) => ({ admin: 404, outsider: 404, invited: 403, rejected: 403, member: 403, lead: ok });
const leadAndMember = (ok: number) => ({
  admin: 404,
  outsider: 404,
  invited: 403,
  rejected: 403,
  member: ok,
  lead: ok,
});
const everyone = (ok: number) => ({ admin: ok, outsider: ok, invited: ok, rejected: ok, member: ok, lead: ok });

const test = harnessTest().extend('place', { scope: 'file' }, async ({ harness: h, world }): Promise<Place> => {
  const lead = world.tokens.lead;
  await registerOrganisation(
    h,
    await h.idp.mint({ sub: 'user-spare', email: 'spare@example.org', orgRoles: { 'org-spare-lead': ['owner'] } }),
    'org-spare-lead',
    'Spare',
  );
  const intent = await createIntentAsLead(h, world, 'Age check');
  const spareIntent = await createIntentAsLead(h, world, 'Spare');
  const noticeless = await createIntentAsLead(h, world, 'Noticeless');
  const template = async (templateId: string, orgId: string) => {
    const created: CallResult<Enveloped<IntentTemplate>> = await h.call('POST', `/v1/intent/${intent}/template`, {
      token: lead,
      body: { templateId, role: 'issuer', orgId },
    });
    return created.body.data.id;
  };
  const entity = await registerEntity(
    h,
    world,
    issuerBody([(await makeCa('Matrix CA')).pem, (await makeCa('Matrix spare CA')).pem], { name: 'Matrix issuer' }),
  );
  const place = {
    ecosystemId: world.ecosystemId,
    intent,
    spareIntent,
    noticeless,
    template: await template('tpl-main', ORG.member),
    spareTemplate: await template('tpl-spare', ORG.lead),
    entity: entity.id,
    spareCertificate: entity.certificates[1]!.id,
    newPems: { create: (await makeCa('Matrix new CA')).pem, add: (await makeCa('Matrix added CA')).pem },
  };
  expect(place.template).toBeTruthy();
  expectStatus(await h.call('POST', `/v1/intent/${intent}/notice`, { token: lead, body: noticeBody() }), 201);
  return place;
});

const rows: Row[] = [
  {
    name: 'POST /v1/invitations',
    request: (c) => ({ method: 'POST', url: '/v1/invitations', body: { email: `${c}-next@example.org` } }),
    expected: adminOnly(201),
  },
  { name: 'GET /v1/invitations', request: () => ({ method: 'GET', url: '/v1/invitations' }), expected: adminOnly(200) },
  {
    name: 'GET /v1/ecosystem/dashboard/summary',
    request: () => ({ method: 'GET', url: '/v1/ecosystem/dashboard/summary' }),
    expected: adminOnly(200),
  },
  {
    name: 'POST /v1/ecosystem/{orgId}/create (lead org, invitation used)',
    request: () => ({
      method: 'POST',
      url: `/v1/ecosystem/${ORG.lead}/create`,
      body: { name: 'Second', description: '' },
    }),
    expected: { admin: 403, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 403 },
  },
  {
    name: 'POST /v1/ecosystem/invite-member',
    request: (_, at) => ({
      method: 'POST',
      url: '/v1/ecosystem/invite-member',
      body: { orgId: 'org-spare-lead', ecosystemId: at.ecosystemId },
    }),
    expected: leadOnly(201),
  },
  {
    name: 'GET /v1/ecosystem/members',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/members?ecosystemId=${at.ecosystemId}` }),
    expected: leadOnly(200),
  },
  {
    name: 'GET /v1/ecosystem/invitations (sent, by ecosystem)',
    request: (_, at) => ({
      method: 'GET',
      url: `/v1/ecosystem/invitations?role=Ecosystem%20Lead&ecosystemId=${at.ecosystemId}`,
    }),
    expected: leadOnly(200),
  },
  {
    name: 'GET /v1/ecosystem/invitations (received, by organisation)',
    request: () => ({ method: 'GET', url: `/v1/ecosystem/invitations?role=Ecosystem%20Member&orgId=${ORG.invited}` }),
    expected: { admin: 403, outsider: 403, invited: 200, rejected: 403, member: 403, lead: 403 },
  },
  {
    name: 'GET /v1/ecosystem/get-ecosystem-orgs',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/get-ecosystem-orgs?ecosystemId=${at.ecosystemId}` }),
    expected: leadAndMember(200),
  },
  { name: 'GET /v1/ecosystem', request: () => ({ method: 'GET', url: '/v1/ecosystem' }), expected: everyone(200) },
  {
    name: 'GET /v1/ecosystem/status',
    request: () => ({ method: 'GET', url: '/v1/ecosystem/status' }),
    expected: everyone(200),
  },
  {
    name: 'GET /v1/organisations/{orgId}',
    request: () => ({ method: 'GET', url: `/v1/organisations/${ORG.lead}` }),
    expected: { admin: 403, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 200 },
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/${at.ecosystemId}` }),
    expected: leadAndMember(200),
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}/trust-list/visibility',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/${at.ecosystemId}/trust-list/visibility` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PUT /v1/organisations/{orgId}',
    request: () => ({ method: 'PUT', url: `/v1/organisations/${ORG.lead}`, body: { name: 'Lead Org' } }),
    expected: { admin: 403, outsider: 403, invited: 403, rejected: 403, member: 403, lead: 200 },
  },
  {
    name: 'POST /v1/intent/ecosystem/{ecosystemId}',
    request: (c, at) => ({
      method: 'POST',
      url: `/v1/intent/ecosystem/${at.ecosystemId}`,
      body: { name: `by ${c}`, description: '' },
    }),
    expected: leadOnly(201),
  },
  {
    name: 'GET /v1/intent/ecosystem/{ecosystemId}',
    request: (_, at) => ({ method: 'GET', url: `/v1/intent/ecosystem/${at.ecosystemId}` }),
    expected: leadAndMember(200),
  },
  {
    name: 'GET /v1/intent/{intentId}',
    request: (_, at) => ({ method: 'GET', url: `/v1/intent/${at.intent}` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PUT /v1/intent/{intentId}',
    request: (_, at) => ({
      method: 'PUT',
      url: `/v1/intent/${at.intent}`,
      body: { name: 'Age check', description: 'Over 18' },
    }),
    expected: leadOnly(200),
  },
  {
    name: 'DELETE /v1/intent/{intentId}',
    request: (_, at) => ({ method: 'DELETE', url: `/v1/intent/${at.spareIntent}` }),
    expected: leadOnly(200),
  },
  {
    name: 'POST /v1/intent/{intentId}/template',
    request: (_, at) => ({
      method: 'POST',
      url: `/v1/intent/${at.intent}/template`,
      body: { templateId: 'tpl-global', role: 'issuer' },
    }),
    expected: leadOnly(201),
  },
  {
    name: 'GET /v1/intent/{intentId}/template',
    request: (_, at) => ({ method: 'GET', url: `/v1/intent/${at.intent}/template` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PUT /v1/intent/{intentId}/template/{intentTemplateId}',
    request: (_, at) => ({
      method: 'PUT',
      url: `/v1/intent/${at.intent}/template/${at.template}`,
      body: { role: 'issuer', description: 'Proof of age' },
    }),
    expected: leadOnly(200),
  },
  {
    name: 'DELETE /v1/intent/{intentId}/template/{intentTemplateId}',
    request: (_, at) => ({ method: 'DELETE', url: `/v1/intent/${at.intent}/template/${at.spareTemplate}` }),
    expected: leadOnly(200),
  },
  {
    name: 'POST /v1/intent/{intentId}/notice',
    request: (_, at) => ({ method: 'POST', url: `/v1/intent/${at.noticeless}/notice`, body: noticeBody() }),
    expected: leadOnly(201),
  },
  {
    name: 'GET /v1/intent/{intentId}/notice',
    request: (_, at) => ({ method: 'GET', url: `/v1/intent/${at.intent}/notice` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PUT /v1/intent/{intentId}/notice',
    request: (_, at) => ({ method: 'PUT', url: `/v1/intent/${at.intent}/notice`, body: noticeBody() }),
    expected: leadAndMember(200),
  },
  {
    name: 'POST /v1/ecosystem/{ecosystemId}/trusted-entities',
    request: (c, at) => ({
      method: 'POST',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities`,
      body: issuerBody([at.newPems.create], { name: `by ${c}` }),
    }),
    expected: leadOnly(201),
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}/trusted-entities',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities` }),
    expected: leadAndMember(200),
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PATCH /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}',
    request: (c, at) => ({
      method: 'PATCH',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}`,
      body: { name: `renamed by ${c}` },
    }),
    expected: leadOnly(200),
  },
  {
    name: 'POST /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/certificates',
    request: (_, at) => ({
      method: 'POST',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/certificates`,
      body: { certificates: [{ pem: at.newPems.add }] },
    }),
    expected: leadOnly(201),
  },
  {
    name: 'DELETE /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/certificates/{certificateId}',
    request: (_, at) => ({
      method: 'DELETE',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/certificates/${at.spareCertificate}`,
    }),
    expected: leadOnly(200),
  },
  {
    name: 'POST /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/status',
    request: (_, at) => ({
      method: 'POST',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/status`,
      body: { status: 'suspended', reason: 'matrix' },
    }),
    expected: leadOnly(200),
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}/trusted-entities/{entityId}/history',
    request: (_, at) => ({
      method: 'GET',
      url: `/v1/ecosystem/${at.ecosystemId}/trusted-entities/${at.entity}/history`,
    }),
    expected: leadAndMember(200),
  },
  {
    name: 'GET /v1/ecosystem/{ecosystemId}/trust-policy',
    request: (_, at) => ({ method: 'GET', url: `/v1/ecosystem/${at.ecosystemId}/trust-policy` }),
    expected: leadAndMember(200),
  },
  {
    name: 'PUT /v1/ecosystem/{ecosystemId}/trust-policy',
    request: (_, at) => ({
      method: 'PUT',
      url: `/v1/ecosystem/${at.ecosystemId}/trust-policy`,
      body: { policy: 'ecosystem' },
    }),
    expected: leadOnly(200),
  },
  {
    name: 'PUT /v1/ecosystem/{ecosystemId}/trust-list/visibility',
    request: (_, at) => ({
      method: 'PUT',
      url: `/v1/ecosystem/${at.ecosystemId}/trust-list/visibility`,
      body: { public: false },
    }),
    expected: leadOnly(200),
  },
  {
    // Last: the invited organisation's rejection changes its invitation (it stays "invited").
    name: 'POST /v1/ecosystem/update-invitation-status',
    request: (_, at) => ({
      method: 'POST',
      url: '/v1/ecosystem/update-invitation-status',
      body: { status: 'rejected', ecosystemId: at.ecosystemId },
    }),
    expected: { admin: 404, outsider: 404, invited: 200, rejected: 409, member: 409, lead: 403 },
  },
];

describe('authorization matrix', () => {
  test.for(rows)('$name', async (row, { harness: h, world, place }) => {
    const actual: Record<string, number> = {};
    for (const caller of CALLERS) {
      const { method, url, body } = row.request(caller, place);
      const token = caller === 'none' ? undefined : world.tokens[caller];
      actual[caller] = (
        await h.call(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) })
      ).status;
    }
    expect(actual).toEqual({ none: 401, ...row.expected });
  });
});
