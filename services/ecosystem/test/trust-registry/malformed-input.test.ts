import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { makeCa } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity, sequenceOf } from '../support/trust-registry.js';

describe('trust registry: malformed input is a 4xx with the platform error body, and changes nothing', () => {
  test('bad JSON, wrong content type, oversized body, wrong types, unknown fields', async ({ harness: h, world }) => {
    const entity = await registerEntity(h, world, issuerBody([(await makeCa('Malformed CA')).pem], { name: 'Target' }));
    const before = await sequenceOf(h, world.ecosystemId);
    const auth = { authorization: `Bearer ${world.tokens.lead}` };
    const writes = [
      ['POST', entitiesPath(world)],
      ['PATCH', entitiesPath(world, `/${entity.id}`)],
      ['POST', entitiesPath(world, `/${entity.id}/certificates`)],
      ['POST', entitiesPath(world, `/${entity.id}/status`)],
      ['PUT', `/v1/ecosystem/${world.ecosystemId}/trust-policy`],
      ['PUT', `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`],
    ] as const;
    for (const [method, url] of writes) {
      const badJson = await h.app.inject({
        method,
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(badJson.json(), `${method} ${url}`).toMatchObject({ statusCode: 400, code: ErrorCode.VALIDATION_FAILED });
      const text = await h.app.inject({
        method,
        url,
        headers: { ...auth, 'content-type': 'text/plain' },
        payload: 'name',
      });
      expect(text.json(), `${method} ${url}`).toMatchObject({
        statusCode: 415,
        code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      });
      expectStatus(
        await h.call(method, url, { token: world.tokens.lead, body: { pad: 'x'.repeat(70_000) } }),
        413,
        ErrorCode.BODY_TOO_LARGE,
      );
      for (const body of [[], 'text', 42, null, { unknown: true }]) {
        const refused = await h.call(method, url, {
          token: world.tokens.lead,
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
      }
    }
    const wrongTypes: Array<[string, unknown]> = [
      [entitiesPath(world), { ...issuerBody(['x']), name: 42 }],
      [entitiesPath(world), { ...issuerBody(['x']), certificates: 'pem' }],
      [entitiesPath(world), { ...issuerBody(['x']), certificates: [{ pem: 42 }] }],
      [entitiesPath(world), { ...issuerBody(['x']), allowedCredentialTypes: [{ format: 'dc+sd-jwt' }] }],
      [entitiesPath(world), { ...issuerBody(['x']), allowedCredentialTypes: [{ format: 'mso_mdoc', vct: 'x' }] }],
      [entitiesPath(world), { ...issuerBody(['x']), orgId: 'has spaces' }],
      [entitiesPath(world, `/${entity.id}/status`), { status: { value: 'suspended' }, reason: 'x' }],
      [entitiesPath(world, `/${entity.id}/status`), { status: 'suspended', reason: ['a', 'b'] }],
    ];
    for (const [url, body] of wrongTypes) {
      const refused = await h.call('POST', url, { token: world.tokens.lead, body });
      expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
      expect(refused.body.details.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
  });

  test('malformed and unknown ids in paths are 404 with the resource code, never a 500', async ({
    harness: h,
    world,
  }) => {
    const entity = await registerEntity(h, world, issuerBody([(await makeCa('Ids CA')).pem], { name: 'Ids' }));
    for (const ecosystemId of ['nope', randomUUID(), `urn:uuid:${randomUUID()}`, '%00', 'x'.repeat(90)]) {
      const base = `/v1/ecosystem/${encodeURIComponent(ecosystemId)}`;
      expectStatus(
        await h.call('GET', `${base}/trusted-entities`, { token: world.tokens.lead }),
        404,
        ErrorCode.ECOSYSTEM_NOT_FOUND,
      );
      expectStatus(
        await h.call('GET', `${base}/trusted-entities/${entity.id}`, { token: world.tokens.lead }),
        404,
        ErrorCode.ECOSYSTEM_NOT_FOUND,
      );
      expectStatus(
        await h.call('PUT', `${base}/trust-policy`, { token: world.tokens.lead, body: { policy: 'ecosystem' } }),
        404,
        ErrorCode.ECOSYSTEM_NOT_FOUND,
      );
    }
    for (const entityId of ['nope', randomUUID(), '00000000-0000-0000-0000-00000000000g']) {
      expectStatus(
        await h.call('POST', entitiesPath(world, `/${entityId}/status`), {
          token: world.tokens.lead,
          body: { status: 'suspended', reason: 'x' },
        }),
        404,
        ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
      );
      expectStatus(
        await h.call('POST', entitiesPath(world, `/${entityId}/certificates`), {
          token: world.tokens.lead,
          body: { certificates: [{ pem: 'x' }] },
        }),
        404,
        ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
      );
    }
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/not-a-uuid`), {
        token: world.tokens.lead,
      }),
      404,
      ErrorCode.CERTIFICATE_NOT_FOUND,
    );
  });
});
