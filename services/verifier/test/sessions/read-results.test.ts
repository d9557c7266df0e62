import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

// `create(body)`: a session of ORG's verifier `desk`; `readResult(id, org)`: its verified presentation.
const test = verifierTest
  .extend(
    'create',
    { scope: 'file' },
    ({ api, desk }) =>
      async (payload: Record<string, unknown>) =>
        (await api('POST', `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=${desk}`, payload)).body.data,
  )
  .extend(
    'readResult',
    { scope: 'file' },
    ({ api }) =>
      (id: string, org = ORG) =>
        api(
          'GET',
          `/v1/orgs/${org}/oid4vp/verifier-presentation-response?verificationPresentationId=${encodeURIComponent(id)}`,
          undefined,
          { org },
        ),
  );

describe('verifier-presentation-response', () => {
  test('the result of an unverified session is 409 PRESENTATION_NOT_VERIFIED; unknown and other-org ids 404', async ({
    create,
    readResult,
  }) => {
    const session = await create({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const pending = await readResult(session.id);
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('PRESENTATION_NOT_VERIFIED');
    expect((await readResult('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await readResult('not-a-uuid')).status).toBe(404);
    const other = await readResult(session.id, OTHER_ORG);
    expect(other.status).toBe(404);
    expect(ORG).not.toBe(OTHER_ORG);
  });

  test('needs verificationPresentationId (400); an unverified one is PRESENTATION_NOT_VERIFIED', async ({
    api,
    create,
    readResult,
  }) => {
    const session = await create({
      dcql: sdJwtQuery(),
      responseMode: 'dc_api',
      expectedOrigins: ['https://rp.tessera.test'],
    });
    const missing = await api('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation-response`);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');
    expect((await readResult(session.id)).body.code).toBe('PRESENTATION_NOT_VERIFIED');
  });
});
