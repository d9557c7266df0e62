import { describe, expect } from 'vitest';
import { ErrorCode } from '@tessera/contracts';
import { readTrustListContent } from '../../src/db/trust-list-content.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { sequenceOf } from '../support/trust-registry.js';

describe('trust policy and trust-list visibility', () => {
  test("the policy is 'organisation' until the lead sets it; members read it; it does not change the sequence", async ({
    harness: h,
    world,
  }) => {
    const path = `/v1/ecosystem/${world.ecosystemId}/trust-policy`;
    const initial = await h.call('GET', path, { token: world.tokens.member });
    expectStatus(initial, 200);
    expect(initial.body.data).toEqual({ ecosystemId: world.ecosystemId, policy: 'organisation' });
    const before = await sequenceOf(h, world.ecosystemId);
    const set = await h.call('PUT', path, { token: world.tokens.lead, body: { policy: 'ecosystem' } });
    expectStatus(set, 200);
    expect(set.body.data).toEqual({ ecosystemId: world.ecosystemId, policy: 'ecosystem' });
    expect((await h.call('GET', path, { token: world.tokens.lead })).body.data.policy).toBe('ecosystem');
    expect((await readTrustListContent(h.database.db, world.ecosystemId))!.policy).toBe('ecosystem');
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
    for (const body of [{}, { policy: 'platform' }, { policy: 'ecosystem', extra: true }, { policy: null }]) {
      expectStatus(await h.call('PUT', path, { token: world.tokens.lead, body }), 400, ErrorCode.VALIDATION_FAILED);
    }
  });

  test('visibility: private by default, the lead makes the list public and private again, the sequence stays', async ({
    harness: h,
    world,
  }) => {
    const path = `/v1/ecosystem/${world.ecosystemId}/trust-list/visibility`;
    expect((await readTrustListContent(h.database.db, world.ecosystemId))!.public).toBe(false);
    const before = await sequenceOf(h, world.ecosystemId);
    const opened = await h.call('PUT', path, { token: world.tokens.lead, body: { public: true } });
    expectStatus(opened, 200);
    expect(opened.body.data).toEqual({ ecosystemId: world.ecosystemId, public: true });
    expect((await readTrustListContent(h.database.db, world.ecosystemId))!.public).toBe(true);
    expectStatus(await h.call('PUT', path, { token: world.tokens.lead, body: { public: false } }), 200);
    expect((await readTrustListContent(h.database.db, world.ecosystemId))!.public).toBe(false);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
    for (const body of [{}, { public: 'yes' }, { public: { value: true } }, { public: true, policy: 'x' }]) {
      expectStatus(await h.call('PUT', path, { token: world.tokens.lead, body }), 400, ErrorCode.VALIDATION_FAILED);
    }
  });
});
