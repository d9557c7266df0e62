import { describe, expect } from 'vitest';
import { verifierTest as test } from '../support/fixtures.js';
import { oid4vpPath } from '../support/management.js';

// Clients generated from the API documents send the "Verifier" body on PUT, verifierId
// included. The same id as the path is accepted; another is 400 VERIFIER_ID_IMMUTABLE
// and changes nothing. On ORG's verifier "desk" (the `desk` fixture creates it).
const base = oid4vpPath();

describe('PUT verifier/{verifierId} with verifierId in the body', () => {
  test('accepts the body when it repeats the path’s verifierId, and applies clientMetadata', async ({ api, desk }) => {
    const updated = await api('PUT', `${base}/verifier/${desk}`, {
      verifierId: 'desk',
      clientMetadata: { client_name: 'Front desk' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ verifierId: 'desk', clientMetadata: { client_name: 'Front desk' } });
    expect((await api('GET', `${base}/verifier/${desk}`)).body.data.clientMetadata).toEqual({
      client_name: 'Front desk',
    });
  });

  test('still accepts a body without verifierId', async ({ api, desk }) => {
    const updated = await api('PUT', `${base}/verifier/${desk}`, { clientMetadata: { client_name: 'Desk' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.clientMetadata).toEqual({ client_name: 'Desk' });
  });

  test('refuses another verifierId with 400 VERIFIER_ID_IMMUTABLE and changes nothing', async ({ api, desk }) => {
    const before = (await api('GET', `${base}/verifier/${desk}`)).body.data;
    for (const verifierId of ['reception', 'Desk', 'not a valid id!']) {
      const refused = await api('PUT', `${base}/verifier/${desk}`, {
        verifierId,
        clientMetadata: { client_name: 'Renamed' },
      });
      expect(refused.status, verifierId).toBe(400);
      expect(refused.body).toMatchObject({
        statusCode: 400,
        code: 'VERIFIER_ID_IMMUTABLE',
        details: [{ path: '/verifierId', message: expect.any(String) }],
      });
    }
    expect((await api('GET', `${base}/verifier/${desk}`)).body.data).toEqual(before);
    expect((await api('GET', `${base}/verifier/reception`)).status).toBe(404);
  });

  test('a verifierId of the wrong type is a schema failure (400 VALIDATION_FAILED)', async ({ api, desk }) => {
    const refused = await api('PUT', `${base}/verifier/${desk}`, { verifierId: { id: 'desk' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
  });
});
