import { describe, expect } from 'vitest';
import { verifierTest as test } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

// PATCH verifier/{verifierId} over HTTP: only the fields sent change, so two people
// changing different settings never undo each other (the PUT replaces the display data).
const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/verifier`;
const LOGO = 'https://acme.example/logo.png';

describe('PATCH verifier', () => {
  test('changes only the fields sent; null removes the display data; the answer is the verifier as stored', async ({
    api,
  }) => {
    const created = await api('POST', base(), {
      verifierId: 'booth',
      clientMetadata: { client_name: 'Booth', logo_uri: LOGO },
    });
    expect(created.status).toBe(201);

    // Two people, each with the verifier as it was: one changes the policy, the other the display data.
    const policy = await api('PATCH', `${base()}/booth`, { overAskingPolicy: 'warn' });
    expect(policy.status).toBe(200);
    expect(policy.body.data).toMatchObject({
      overAskingPolicy: 'warn',
      strictHaip: false,
      clientMetadata: { client_name: 'Booth', logo_uri: LOGO },
    });
    const display = await api('PATCH', `${base()}/booth`, { clientMetadata: { client_name: 'Booth 2' } });
    expect(display.body.data).toMatchObject({ overAskingPolicy: 'warn', clientMetadata: { client_name: 'Booth 2' } });
    // The display data is one value, replaced as a whole (its logo goes): not merged member by member.
    expect(display.body.data.clientMetadata).toEqual({ client_name: 'Booth 2' });

    const strict = await api('PATCH', `${base()}/booth`, { strictHaip: true, verifierId: 'booth' });
    expect(strict.body.data).toMatchObject({ strictHaip: true, overAskingPolicy: 'warn' });
    expect(strict.body.data.clientMetadata).toEqual({ client_name: 'Booth 2' });
    expect(Date.parse(strict.body.data.lastChangedDateTime)).toBeGreaterThanOrEqual(
      Date.parse(created.body.data.lastChangedDateTime),
    );

    const removed = await api('PATCH', `${base()}/booth`, { clientMetadata: null });
    expect(removed.status).toBe(200);
    expect(removed.body.data.clientMetadata).toBeUndefined();
    expect((await api('GET', `${base()}/booth`)).body.data).toMatchObject({
      verifierId: 'booth',
      overAskingPolicy: 'warn',
      strictHaip: true,
    });
  });

  test('refuses malformed bodies with 400 VALIDATION_FAILED, another verifierId with VERIFIER_ID_IMMUTABLE; nothing changes', async ({
    api,
  }) => {
    expect((await api('POST', base(), { verifierId: 'stall', clientMetadata: { client_name: 'Stall' } })).status).toBe(
      201,
    );
    const before = (await api('GET', `${base()}/stall`)).body.data;
    for (const body of [
      {},
      { overAskingPolicy: 'sometimes' },
      { strictHaip: 'yes' },
      { clientMetadata: { client_name: 'x', logo_uri: 'not a uri' } },
      { clientMetadata: 'Stall' },
      { nickname: 'stall' },
      [{ strictHaip: true }],
    ]) {
      const refused = await api('PATCH', `${base()}/stall`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
    const renamed = await api('PATCH', `${base()}/stall`, { verifierId: 'other', strictHaip: true });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({
      code: 'VERIFIER_ID_IMMUTABLE',
      details: [{ path: '/verifierId', message: 'must equal the verifierId in the path' }],
    });
    const notJson = await api('PATCH', `${base()}/stall`, 'strictHaip=true', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect((await api('GET', `${base()}/stall`)).body.data).toEqual(before);
  });

  test('404 for an unknown verifier and for another organisation’s, which stays as it was', async ({ api }) => {
    const missing = await api('PATCH', `${base()}/nobody`, { strictHaip: true });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('VERIFIER_NOT_FOUND');

    expect((await api('POST', base(OTHER_ORG), { verifierId: 'theirs' }, { org: OTHER_ORG })).status).toBe(201);
    const foreign = await api('PATCH', `${base()}/theirs`, { strictHaip: true });
    expect(foreign.status).toBe(404);
    const theirs = await api('GET', `${base(OTHER_ORG)}/theirs`, undefined, { org: OTHER_ORG });
    expect(theirs.body.data.strictHaip).toBe(false);
  });

  test('every member role may patch; no token 401, another organisation’s token or no role 403', async ({
    api,
    harness: h,
  }) => {
    expect((await api('POST', base(), { verifierId: 'gate-7' })).status).toBe(201);
    for (const role of ['owner', 'admin', 'verifier'])
      expect((await api('PATCH', `${base()}/gate-7`, { strictHaip: false }, { roles: [role] })).status, role).toBe(200);
    const call = (headers: Record<string, string>) =>
      h.call('PATCH', `${base()}/gate-7`, { headers, body: { strictHaip: true } });
    expect((await call({})).status).toBe(401);
    expect((await call(await h.auth(OTHER_ORG, ['owner']))).status).toBe(403);
    expect((await call(await h.auth(ORG, ['member']))).status).toBe(403);
    expect((await api('GET', `${base()}/gate-7`)).body.data.strictHaip).toBe(false);
  });
});
