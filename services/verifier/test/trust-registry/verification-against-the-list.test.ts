import { describe, expect } from 'vitest';
import type { CreatedPresentation } from '@tessera/contracts';
import { expectFailedWith, expectVerified } from '../support/crafted-answers.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { resolveRedirectRequest } from '../support/holder.js';
import { ORG, oid4vpPath, type MemberCall } from '../support/management.js';
import {
  akiValue,
  answerAs,
  createRegistryIssuer,
  createSiblingIssuer,
  DIPLOMA_TYPE,
  entity,
  eventually,
  jwsPayload,
  listedCertificate,
  MDL_TYPE,
  PID_TYPE,
  startStubEcosystem,
  type StubEcosystem,
  type StubList,
} from './support.js';

// Sessions verified against an ecosystem's trust list, end to end: the verifier app
// listening on 127.0.0.1, a wallet over HTTP, and a stub ecosystem service on the
// verifier's NATS (peer connection) answering `ecosystem.v1.trust-list.get` and
// publishing `ecosystem.v1.trust-list.changed`. The issuers of the list are not
// anchors of the organisation: only the list makes them trusted.
const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest().extend(
  'ecosystem',
  { scope: 'file' },
  async ({ harness, api, desk: _desk }, { onCleanup }): Promise<StubEcosystem> => {
    const template = await api('POST', `${oid4vpPath()}/verification-template`, {
      name: 'PID',
      templateJson: { dcql: { query: sdJwtQuery() } },
      signerOption: 'X509_P256',
    });
    expect(template.status, template.raw).toBe(201);
    const bus = await harness.connectPeer('ecosystem-stub');
    const stub = await startStubEcosystem(bus, { templateId: template.body.data.id as string });
    onCleanup(async () => {
      stub.stop();
      await bus.close();
    });
    return stub;
  },
);

/** A list ORG is a member of. */
const memberList = (stub: StubEcosystem, entities: StubList['entities'], extra: Partial<StubList> = {}) =>
  stub.add({ entities, members: new Set([ORG]), ...extra });

/** `POST presentation` of ORG's verifier `desk`, whatever it answers. */
const createDirect = (api: MemberCall, body: unknown) =>
  api('POST', `${oid4vpPath()}/presentation?verifierId=desk`, body);

/** A direct session verified against `list` (201 or the test fails). */
const listSession = (e: Parameters<typeof answerAs>[0], list: StubList, body: Record<string, unknown> = {}) =>
  e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', ecosystemId: list.ecosystemId, ...body });

describe('a session verified against an ecosystem trust list', () => {
  test('an active issuer entity (CA entry): the presentation verifies and names the entity and the list sequence, in the result and the DC API answer', async ({
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Listed PID Issuer');
    const listed = entity({ name: 'Listed PID Issuer', certificates: [issuer.ca] });
    const list = memberList(ecosystem, [listed]);

    const session = await listSession(e, list);
    const result = await expectVerified(e, session, await answerAs(e, session, issuer));
    expect(result.presentations[0]).toMatchObject({
      credentialQueryId: 'pid',
      trustedEntityId: listed.id,
      trustedEntityName: 'Listed PID Issuer',
      trustListSequence: 1,
    });

    const dcApi = await listSession(e, list, { responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const answered = await answerAs(e, dcApi, issuer, { origin: ORIGIN });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect((answered.body as { data: unknown }).data).toMatchObject({
      state: 'ResponseVerified',
      presentations: [{ trustedEntityId: listed.id, trustedEntityName: 'Listed PID Issuer', trustListSequence: 1 }],
    });
  });

  test('an mdoc issuer listed for its doctype verifies through its CA entry', async ({ e2e: e, ecosystem }) => {
    const issuer = await createRegistryIssuer('Listed mDL Issuer');
    const listed = entity({ name: 'Listed mDL Issuer', certificates: [issuer.ca], types: [MDL_TYPE] });
    const list = memberList(ecosystem, [listed]);
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    const result = await expectVerified(e, session, await answerAs(e, session, issuer, { format: 'mdoc' }));
    expect(result.presentations[0]).toMatchObject({
      format: 'mso_mdoc',
      trustedEntityId: listed.id,
      trustListSequence: 1,
    });
  });

  test('a leaf entry is trusted by its exact fingerprint: another leaf of the same CA is not', async ({
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Pinned Leaf Issuer');
    const sibling = await createSiblingIssuer(issuer, 'Unlisted Sibling');
    const listed = entity({ name: 'Pinned Leaf Issuer', certificates: [issuer.leaf] });
    expect(listed.certificates[0]!.kind).toBe('leaf');
    const list = memberList(ecosystem, [listed]);

    const session = await listSession(e, list);
    const result = await expectVerified(e, session, await answerAs(e, session, issuer));
    expect(result.presentations[0]).toMatchObject({
      trustedEntityId: listed.id,
      trustedEntityName: 'Pinned Leaf Issuer',
    });

    const other = await listSession(e, list);
    await expectFailedWith(e, other, await answerAs(e, other, sibling), 'ISSUER_NOT_TRUSTED');
  });

  test('suspended and withdrawn entities grant nothing, from the next presentation on; reactivation restores trust', async ({
    harness: h,
    api,
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Suspendable Issuer');
    const listed = entity({ name: 'Suspendable Issuer', certificates: [issuer.ca] });
    const list = memberList(ecosystem, [listed]);
    const held = () => h.trustLists.sequences().get(list.ecosystemId);

    const first = await listSession(e, list);
    await expectVerified(e, first, await answerAs(e, first, issuer));

    const pending = await listSession(e, list);
    ecosystem.setStatus(list, listed.id, 'suspended');
    await eventually(() => held() === 2, 2000, 'the suspension reached the verifier');
    await expectFailedWith(e, pending, await answerAs(e, pending, issuer), 'ISSUER_NOT_TRUSTED');
    // No active issuer is left for the PID query: no request a wallet could not answer.
    const none = await createDirect(api, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: list.ecosystemId,
    });
    expect(none.body).toMatchObject({ statusCode: 409, code: 'NO_TRUSTED_ISSUER' });

    ecosystem.setStatus(list, listed.id, 'active');
    await eventually(() => held() === 3, 2000, 'the reactivation reached the verifier');
    const again = await listSession(e, list);
    const result = await expectVerified(e, again, await answerAs(e, again, issuer));
    expect(result.presentations[0]!.trustListSequence).toBe(3);

    const beforeWithdrawal = await listSession(e, list);
    ecosystem.setStatus(list, listed.id, 'withdrawn');
    await eventually(() => held() === 4, 2000, 'the withdrawal reached the verifier');
    await expectFailedWith(e, beforeWithdrawal, await answerAs(e, beforeWithdrawal, issuer), 'ISSUER_NOT_TRUSTED');
  });

  test('an active issuer not allowed the credential type: CREDENTIAL_TYPE_NOT_ALLOWED', async ({
    e2e: e,
    ecosystem,
  }) => {
    const pidIssuer = await createRegistryIssuer('PID Authority');
    const diplomaIssuer = await createRegistryIssuer('Diploma Authority');
    const list = memberList(ecosystem, [
      entity({ name: 'PID Authority', certificates: [pidIssuer.ca] }),
      entity({ name: 'Diploma Authority', certificates: [diplomaIssuer.ca], types: [DIPLOMA_TYPE] }),
    ]);
    const session = await listSession(e, list);
    await expectFailedWith(e, session, await answerAs(e, session, diplomaIssuer), 'CREDENTIAL_TYPE_NOT_ALLOWED');
  });

  test('a verifier-role entity, the organisation’s own anchors and its issuers grant nothing under a list', async ({
    e2e: e,
    ecosystem,
  }) => {
    const pidIssuer = await createRegistryIssuer('Only PID Issuer');
    const verifierParty = await createRegistryIssuer('A Relying Party');
    const list = memberList(ecosystem, [
      entity({ name: 'Only PID Issuer', certificates: [pidIssuer.ca] }),
      entity({ name: 'A Relying Party', role: 'verifier', certificates: [verifierParty.ca] }),
    ]);
    const byVerifierEntity = await listSession(e, list);
    await expectFailedWith(
      e,
      byVerifierEntity,
      await answerAs(e, byVerifierEntity, verifierParty),
      'ISSUER_NOT_TRUSTED',
    );
    // e2e.issuer's CA is a trust anchor of ORG: trusted for ORG's ordinary sessions, not for this list's.
    const byOrganisationAnchor = await listSession(e, list);
    await expectFailedWith(
      e,
      byOrganisationAnchor,
      await answerAs(e, byOrganisationAnchor, e.issuer),
      'ISSUER_NOT_TRUSTED',
    );
    const ordinary = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const result = await expectVerified(e, ordinary, await answerAs(e, ordinary, e.issuer));
    expect(result.presentations[0]).not.toHaveProperty('trustedEntityId');
  });
});

describe('direct sessions naming an ecosystem', () => {
  test('a member organisation gets one (the ecosystem is asked with orgId); a non-member 403 NOT_A_MEMBER, an unknown ecosystem 404, and nothing is stored', async ({
    api,
    e2e: e,
    ecosystem,
  }) => {
    const issuer = await createRegistryIssuer('Member List Issuer');
    const list = memberList(ecosystem, [entity({ name: 'Member List Issuer', certificates: [issuer.ca] })]);
    await listSession(e, list);
    expect(ecosystem.received.at(-1)).toMatchObject({ ecosystemId: list.ecosystemId, orgId: ORG });

    const count = async () =>
      (await api('GET', `${oid4vpPath()}/verifier-presentation`)).body.data.totalItems as number;
    const before = await count();
    const foreign = ecosystem.add({
      entities: [entity({ name: 'Member List Issuer', certificates: [issuer.ca] })],
      members: new Set(['org-someone-else']),
    });
    expect(
      (await createDirect(api, { dcql: sdJwtQuery(), responseMode: 'direct_post', ecosystemId: foreign.ecosystemId }))
        .body,
    ).toMatchObject({ statusCode: 403, code: 'NOT_A_MEMBER' });
    expect(
      (
        await createDirect(api, {
          dcql: sdJwtQuery(),
          responseMode: 'direct_post',
          ecosystemId: '00000000-0000-4000-8000-000000000000',
        })
      ).body,
    ).toMatchObject({ statusCode: 404, code: 'ECOSYSTEM_NOT_FOUND' });
    expect(
      (await createDirect(api, { dcql: sdJwtQuery(), responseMode: 'direct_post', ecosystemId: 'not-a-uuid' })).body,
    ).toMatchObject({ statusCode: 400 });
    expect(await count()).toBe(before);
  });

  test('the request object carries trusted_authorities (aki) for the active issuers allowed the query’s type: CA by SKI, leaf by AKI', async ({
    e2e: e,
    ecosystem,
  }) => {
    const caIssuer = await createRegistryIssuer('CA Listed');
    const leafIssuer = await createRegistryIssuer('Leaf Listed');
    const suspended = await createRegistryIssuer('Suspended Listed');
    const diploma = await createRegistryIssuer('Diploma Listed');
    const relyingParty = await createRegistryIssuer('Verifier Listed');
    const list = memberList(ecosystem, [
      entity({ name: 'CA Listed', certificates: [caIssuer.ca] }),
      entity({ name: 'Leaf Listed', certificates: [leafIssuer.leaf] }),
      entity({ name: 'Suspended Listed', certificates: [suspended.ca], status: 'suspended' }),
      entity({ name: 'Diploma Listed', certificates: [diploma.ca], types: [DIPLOMA_TYPE] }),
      entity({ name: 'Verifier Listed', role: 'verifier', certificates: [relyingParty.ca] }),
    ]);
    const expected = [akiValue(listedCertificate(caIssuer.ca).ski), akiValue(listedCertificate(leafIssuer.leaf).aki)];

    const session = await listSession(e, list);
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const credentials = (
      resolved.authorizationRequestPayload.dcql_query as { credentials: Array<Record<string, unknown>> }
    ).credentials;
    expect(credentials[0]!.trusted_authorities).toEqual([{ type: 'aki', values: expected }]);
    // The DC API request object too (signed at creation, handed to the browser).
    const dcApi = await listSession(e, list, { responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const dcApiQuery = jwsPayload((dcApi.dcApiRequest!.data as { request: string }).request).dcql_query as {
      credentials: Array<Record<string, unknown>>;
    };
    expect(dcApiQuery.credentials[0]!.trusted_authorities).toEqual([{ type: 'aki', values: expected }]);
    // Both listed issuers answer it.
    await expectVerified(e, session, await answerAs(e, session, leafIssuer));
  });

  test('a query with its own aki authorities keeps only the values the list also names, and its answer is evaluated against that query', async ({
    e2e: e,
    ecosystem,
  }) => {
    const first = await createRegistryIssuer('First Listed');
    const second = await createRegistryIssuer('Second Listed');
    const list = memberList(ecosystem, [
      entity({ name: 'First Listed', certificates: [first.ca] }),
      entity({ name: 'Second Listed', certificates: [second.ca] }),
    ]);
    const firstAki = akiValue(listedCertificate(first.ca).ski);
    const narrowed = sdJwtQuery();
    Object.assign(narrowed.credentials[0]!, {
      trusted_authorities: [{ type: 'aki', values: [firstAki, 'bm90LWxpc3RlZA'] }],
    });

    const session = await listSession(e, list, { dcql: narrowed });
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    expect(
      (resolved.authorizationRequestPayload.dcql_query as { credentials: Array<Record<string, unknown>> })
        .credentials[0]!.trusted_authorities,
    ).toEqual([{ type: 'aki', values: [firstAki] }]);
    // The second issuer is on the list but not among the query's authorities.
    // The credential query whose trusted_authorities the issuer missed (the reason is the engine's: test/verification/evaluate-dcql.test.ts).
    await expectFailedWith(e, session, await answerAs(e, session, second), 'DCQL_NOT_SATISFIED');
    const accepted = await listSession(e, list, { dcql: narrowed });
    await expectVerified(e, accepted, await answerAs(e, accepted, first));
  });

  test('409 NO_TRUSTED_ISSUER when a credential query has no qualifying issuer (none allowed its type, or none the query’s authorities name), and nothing is stored', async ({
    api,
    e2e: e,
    ecosystem,
  }) => {
    const diploma = await createRegistryIssuer('Diplomas Only');
    const pid = await createRegistryIssuer('PIDs Too');
    const diplomasOnly = memberList(ecosystem, [
      entity({ name: 'Diplomas Only', certificates: [diploma.ca], types: [DIPLOMA_TYPE] }),
    ]);
    const withPid = memberList(ecosystem, [
      entity({ name: 'PIDs Too', certificates: [pid.ca], types: [PID_TYPE, DIPLOMA_TYPE] }),
    ]);
    const count = async () =>
      (await api('GET', `${oid4vpPath()}/verifier-presentation`)).body.data.totalItems as number;
    const before = await count();
    const refused = await createDirect(api, {
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      ecosystemId: diplomasOnly.ecosystemId,
    });
    expect(refused.body).toMatchObject({
      statusCode: 409,
      code: 'NO_TRUSTED_ISSUER',
      message: expect.stringContaining('"pid"'),
    });
    const elsewhere = sdJwtQuery();
    Object.assign(elsewhere.credentials[0]!, { trusted_authorities: [{ type: 'aki', values: ['bm90LWxpc3RlZA'] }] });
    expect(
      (await createDirect(api, { dcql: elsewhere, responseMode: 'direct_post', ecosystemId: withPid.ecosystemId }))
        .body,
    ).toMatchObject({ statusCode: 409, code: 'NO_TRUSTED_ISSUER' });
    expect(await count()).toBe(before);
  });
});

describe('intent-based sessions and the ecosystem trust policy', () => {
  const createIntent = async (api: MemberCall, list: StubList): Promise<CreatedPresentation> => {
    const created = await api(
      'POST',
      `${oid4vpPath()}/intent-based-verification-presentation?verifierId=desk&ecosystemId=${list.ecosystemId}`,
      { intent: 'age', responseMode: 'direct_post' },
    );
    expect(created.status, created.raw).toBe(201);
    return created.body.data as CreatedPresentation;
  };

  test('without a policy (organisation): unchanged — no trusted_authorities, the organisation’s anchors decide, no entity named', async ({
    api,
    e2e: e,
    ecosystem,
  }) => {
    const listedIssuer = await createRegistryIssuer('Ignored Listed Issuer');
    const list = memberList(ecosystem, [entity({ name: 'Ignored Listed Issuer', certificates: [listedIssuer.ca] })]);
    const fetchesBefore = ecosystem.received.length;
    const session = await createIntent(api, list);
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    expect(
      (resolved.authorizationRequestPayload.dcql_query as { credentials: Array<Record<string, unknown>> })
        .credentials[0],
    ).not.toHaveProperty('trusted_authorities');
    const result = await expectVerified(e, session, await answerAs(e, session, e.issuer));
    expect(result.presentations[0]).not.toHaveProperty('trustedEntityId');
    const other = await createIntent(api, list);
    await expectFailedWith(e, other, await answerAs(e, other, listedIssuer), 'ISSUER_NOT_TRUSTED');
    expect(ecosystem.received.length).toBe(fetchesBefore);
  });

  test('under the ecosystem policy: the list alone decides, the query names its issuers, the result names the entity', async ({
    api,
    e2e: e,
    ecosystem,
  }) => {
    const listedIssuer = await createRegistryIssuer('Policy Listed Issuer');
    const listed = entity({ name: 'Policy Listed Issuer', certificates: [listedIssuer.ca] });
    const list = memberList(ecosystem, [listed], { trustPolicy: 'ecosystem' });
    const session = await createIntent(api, list);
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    expect(
      (resolved.authorizationRequestPayload.dcql_query as { credentials: Array<Record<string, unknown>> })
        .credentials[0]!.trusted_authorities,
    ).toEqual([{ type: 'aki', values: [akiValue(listedCertificate(listedIssuer.ca).ski)] }]);
    const result = await expectVerified(e, session, await answerAs(e, session, listedIssuer));
    expect(result.presentations[0]).toMatchObject({
      trustedEntityId: listed.id,
      trustedEntityName: 'Policy Listed Issuer',
      trustListSequence: 1,
    });
    const byAnchor = await createIntent(api, list);
    await expectFailedWith(e, byAnchor, await answerAs(e, byAnchor, e.issuer), 'ISSUER_NOT_TRUSTED');
  });

  test('concurrent first needs of one ecosystem’s list are one fetch', async ({ api, e2e: e, ecosystem }) => {
    const listedIssuer = await createRegistryIssuer('Coalesced Issuer');
    const list = memberList(ecosystem, [entity({ name: 'Coalesced Issuer', certificates: [listedIssuer.ca] })], {
      trustPolicy: 'ecosystem',
    });
    ecosystem.delayMs = 300;
    try {
      const sessions = await Promise.all(Array.from({ length: 5 }, () => createIntent(api, list)));
      expect(sessions).toHaveLength(5);
    } finally {
      ecosystem.delayMs = 0;
    }
    expect(ecosystem.received.filter((request) => request.ecosystemId === list.ecosystemId)).toHaveLength(1);
  });
});
