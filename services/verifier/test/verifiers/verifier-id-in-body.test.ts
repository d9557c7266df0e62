import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from '../support/e2e.js';
import { ORG } from '../support/fixtures.js';

// Clients generated from the API documents send the "Verifier" body on PUT, verifierId
// included. The same id as the path is accepted; another is 400 VERIFIER_ID_IMMUTABLE
// and changes nothing. Over real HTTP (the e2e setting creates verifier "desk").
const base = `/v1/orgs/${ORG}/oid4vp`;
let e: E2e;
beforeAll(async () => {
  e = await createE2e();
});
afterAll(() => e?.close());

describe('PUT verifier/{verifierId} with verifierId in the body', () => {
  it('accepts the body when it repeats the path’s verifierId, and applies clientMetadata', async () => {
    const updated = await e.call('PUT', `${base}/verifier/desk`, { verifierId: 'desk', clientMetadata: { client_name: 'Front desk' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ verifierId: 'desk', clientMetadata: { client_name: 'Front desk' } });
    expect((await e.call('GET', `${base}/verifier/desk`)).body.data.clientMetadata).toEqual({ client_name: 'Front desk' });
  });

  it('still accepts a body without verifierId', async () => {
    const updated = await e.call('PUT', `${base}/verifier/desk`, { clientMetadata: { client_name: 'Desk' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.clientMetadata).toEqual({ client_name: 'Desk' });
  });

  it('refuses another verifierId with 400 VERIFIER_ID_IMMUTABLE and changes nothing', async () => {
    const before = (await e.call('GET', `${base}/verifier/desk`)).body.data;
    for (const verifierId of ['reception', 'Desk', 'not a valid id!']) {
      const refused = await e.call('PUT', `${base}/verifier/desk`, { verifierId, clientMetadata: { client_name: 'Renamed' } });
      expect(refused.status, verifierId).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, code: 'VERIFIER_ID_IMMUTABLE', details: [{ path: '/verifierId', message: expect.any(String) }] });
    }
    expect((await e.call('GET', `${base}/verifier/desk`)).body.data).toEqual(before);
    expect((await e.call('GET', `${base}/verifier/reception`)).status).toBe(404);
  });

  it('a verifierId of the wrong type is a schema failure (400 VALIDATION_FAILED)', async () => {
    const refused = await e.call('PUT', `${base}/verifier/desk`, { verifierId: { id: 'desk' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
  });
});
