import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from './support/e2e.js';
import { listenToSessionEvents } from './support/events.js';
import { bothQuery, mdocQuery, ORG, sdJwtQuery } from './support/fixtures.js';
import { buildResponse, dcApiPayload, presentMdl, presentPid, requestFacts, resolveDcApiRequest, resolveRedirectRequest, submitResponse, type ResolvedRequest } from './support/holder.js';
import { issueMdl, issuePid, MDL_DOCTYPE, newHolder, PID_VCT } from './support/issuers.js';

let e: E2e;
let listener: Awaited<ReturnType<typeof listenToSessionEvents>>;
beforeAll(async () => {
  e = await createE2e();
  listener = await listenToSessionEvents(e.h.connectPeer);
});
afterAll(async () => {
  await listener.close();
  await e.close();
});

const ORIGIN = 'https://rp.tessera.test';
type Format = 'sd-jwt' | 'mdoc';

/** A wallet holding one credential of `format` answers the session through its response mode. */
async function answer(format: Format, session: any, origin?: string) {
  const holder = await newHolder();
  const resolved: ResolvedRequest = origin ? await resolveDcApiRequest(e.wallet, session.dcApiRequest.data, origin) : await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const facts = requestFacts(resolved);
  const presentation =
    format === 'sd-jwt'
      ? await presentPid(await issuePid(e.issuer, holder), holder, facts, origin ? { origin } : {})
      : await presentMdl(await issueMdl(e.issuer, holder), holder, facts, origin ? { origin } : {});
  const built = await buildResponse(e.wallet, resolved, { [format === 'sd-jwt' ? 'pid' : 'mdl']: [presentation] }, origin);
  if (origin) return e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: dcApiPayload(built), origin });
  return submitResponse(e.wallet, resolved, built);
}

describe.each([
  ['sd-jwt', sdJwtQuery],
  ['mdoc', mdocQuery],
] as const)('%s presented over every response mode', (format, query) => {
  it.each(['direct_post', 'direct_post.jwt'])('%s: 200 {}, session ResponseVerified, result readable, event published', async (responseMode) => {
    const session = await e.createSession({ dcql: query(), responseMode });
    const answered = await answer(format, session);
    expect(answered).toEqual({ status: 200, body: {} });
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    await listener.waitFor(session.id, 'ResponseVerified');
    const result = await e.readResult(session.id);
    expect(result.status).toBe(200);
    const data = result.body.data;
    expect(data).toMatchObject({ id: session.id, state: 'ResponseVerified', verifiedAt: expect.any(String) });
    expect(data.presentations).toHaveLength(1);
    if (format === 'sd-jwt') {
      expect(data.presentations[0]).toMatchObject({ credentialQueryId: 'pid', format: 'dc+sd-jwt', vct: PID_VCT, holderBinding: true, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
      expect(data.presentations[0].claims).not.toHaveProperty('age_over_18');
      expect(data.presentations[0].claims).not.toHaveProperty('cnf');
    } else {
      expect(data.presentations[0]).toMatchObject({ credentialQueryId: 'mdl', format: 'mso_mdoc', doctype: MDL_DOCTYPE, holderBinding: true, claims: { 'org.iso.18013.5.1': { family_name: 'Mustermann' } } });
    }
    expect(data.presentations[0].issuer).toContain('PID Issuer');
  });

  it.each(['dc_api', 'dc_api.jwt'])('%s: 200 with the verified presentation in data', async (responseMode) => {
    const session = await e.createSession({ dcql: query(), responseMode, expectedOrigins: [ORIGIN] });
    const answered = await answer(format, session, ORIGIN);
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ id: session.id, state: 'ResponseVerified', verifiedAt: expect.any(String), presentations: [expect.objectContaining({ holderBinding: true })] });
    expect(answered.body.data.error).toBeUndefined();
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
    expect((await e.readResult(session.id)).body.data.presentations).toEqual(answered.body.data.presentations);
  });
});

describe('credential sets and same-device redirect', () => {
  it('a query with credential_sets is satisfied by its second option (mdoc only)', async () => {
    const session = await e.createSession({ dcql: bothQuery(), responseMode: 'direct_post' });
    expect(await answer('mdoc', session)).toEqual({ status: 200, body: {} });
    const data = (await e.readResult(session.id)).body.data;
    expect(data.credentialSets).toEqual([{ options: [['pid'], ['mdl']], required: true, satisfiedOption: 1 }]);
    expect(data.presentations.map((p: any) => p.credentialQueryId)).toEqual(['mdl']);
  });

  it('answers { redirect_uri } after a verified direct_post when the session has one', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post', redirectUri: 'https://rp.tessera.test/done' });
    // The redirect carries a fresh response_code (round 2; its own tests are in test/same-device-redirect/).
    expect(await answer('sd-jwt', session)).toEqual({ status: 200, body: { redirect_uri: expect.stringMatching(/^https:\/\/rp\.tessera\.test\/done\?response_code=[A-Za-z0-9_-]{43}$/) } });
  });

  it('the result of an unverified session is 409 PRESENTATION_NOT_VERIFIED; unknown and other-org ids 404', async () => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const pending = await e.readResult(session.id);
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('PRESENTATION_NOT_VERIFIED');
    expect((await e.readResult('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await e.readResult('not-a-uuid')).status).toBe(404);
    const other = await e.call('GET', `/v1/orgs/org-other/oid4vp/verifier-presentation-response?verificationPresentationId=${session.id}`, undefined, { org: 'org-other' });
    expect(other.status).toBe(404);
    expect(ORG).not.toBe('org-other');
  });
});
