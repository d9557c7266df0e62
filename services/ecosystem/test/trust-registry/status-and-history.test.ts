import { describe, expect } from 'vitest';
import { ErrorCode, type TrustedEntity, type TrustedEntityHistoryEntry } from '@tessera/contracts';
import { makeCa } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity, sequenceOf } from '../support/trust-registry.js';

describe('trusted entity status and history', () => {
  test('active → suspended → active → withdrawn, each with its reason, status time and one history entry carrying the new sequence', async ({
    harness: h,
    world,
  }) => {
    const ca = await makeCa('Status CA');
    const entity = await registerEntity(h, world, issuerBody([ca.pem], { name: 'Statusful' }));
    const setStatus = (status: string, reason: string) =>
      h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
        token: world.tokens.lead,
        body: { status, reason },
      });
    const s0 = await sequenceOf(h, world.ecosystemId);

    const suspended = await setStatus('suspended', 'key compromise under investigation');
    expectStatus(suspended, 200);
    expect(suspended.body.data).toMatchObject({
      status: 'suspended',
      statusReason: 'key compromise under investigation',
    });
    expect(Date.parse(suspended.body.data.statusChangedAt)).toBeGreaterThanOrEqual(Date.parse(entity.statusChangedAt));

    // The same status again: 200, unchanged, no history entry, same sequence.
    const same = await setStatus('suspended', 'still investigating');
    expectStatus(same, 200);
    expect(same.body.data).toMatchObject({
      status: 'suspended',
      statusReason: 'key compromise under investigation',
      statusChangedAt: suspended.body.data.statusChangedAt,
    });
    expect(await sequenceOf(h, world.ecosystemId)).toBe(s0 + 1);

    expectStatus(await setStatus('active', 'cleared'), 200);
    const withdrawn = await setStatus('withdrawn', 'left the scheme');
    expectStatus(withdrawn, 200);
    expect(withdrawn.body.data.status).toBe('withdrawn');
    expect(await sequenceOf(h, world.ecosystemId)).toBe(s0 + 3);

    // Withdrawn is final: status (also withdrawn again), PATCH and certificate changes are 409 ENTITY_WITHDRAWN.
    for (const status of ['active', 'suspended', 'withdrawn'])
      expectStatus(await setStatus(status, 'try'), 409, ErrorCode.ENTITY_WITHDRAWN);
    expectStatus(
      await h.call('PATCH', entitiesPath(world, `/${entity.id}`), { token: world.tokens.lead, body: { name: 'Back' } }),
      409,
      ErrorCode.ENTITY_WITHDRAWN,
    );
    expectStatus(
      await h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
        token: world.tokens.lead,
        body: { certificates: [{ pem: (await makeCa('Late CA')).pem }] },
      }),
      409,
      ErrorCode.ENTITY_WITHDRAWN,
    );
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${entity.certificates[0]!.id}`), {
        token: world.tokens.lead,
      }),
      409,
      ErrorCode.ENTITY_WITHDRAWN,
    );
    expect(await sequenceOf(h, world.ecosystemId)).toBe(s0 + 3);
    // Still readable, with its certificates.
    const read = await h.call('GET', entitiesPath(world, `/${entity.id}`), { token: world.tokens.member });
    expect(read.body.data).toMatchObject({
      status: 'withdrawn',
      statusReason: 'left the scheme',
      certificates: [{ fingerprint: ca.fingerprint }],
    });

    const history = await h.call('GET', entitiesPath(world, `/${entity.id}/history`), { token: world.tokens.member });
    expectStatus(history, 200);
    const entries = history.body.data.data as TrustedEntityHistoryEntry[];
    expect(history.body.data.totalItems).toBe(4);
    expect(entries.map((e) => [e.change, e.from, e.to, e.reason])).toEqual([
      [
        'created',
        null,
        expect.objectContaining({ name: 'Statusful', role: 'issuer', status: 'active', orgId: null }),
        null,
      ],
      ['status-changed', { status: 'active' }, { status: 'suspended' }, 'key compromise under investigation'],
      ['status-changed', { status: 'suspended' }, { status: 'active' }, 'cleared'],
      ['status-changed', { status: 'active' }, { status: 'withdrawn' }, 'left the scheme'],
    ]);
    expect(entries.map((e) => e.sequence)).toEqual([s0, s0 + 1, s0 + 2, s0 + 3]);
    expect(entries.every((e) => e.actor === 'user-lead')).toBe(true);
    expect((entries[0]!.to as { certificates: unknown[] }).certificates).toEqual([
      expect.objectContaining({ fingerprint: ca.fingerprint, kind: 'ca', ski: ca.ski }),
    ]);
    expect(entries[3]!.at).toBe(withdrawn.body.data.statusChangedAt);

    // Paging, oldest first.
    const page = await h.call('GET', entitiesPath(world, `/${entity.id}/history?pageSize=3&pageNumber=2`), {
      token: world.tokens.lead,
    });
    expect(page.body.data).toMatchObject({ totalItems: 4, totalPages: 2, page: 2, pageSize: 3 });
    expect((page.body.data.data as TrustedEntityHistoryEntry[]).map((e) => e.sequence)).toEqual([s0 + 3]);
  });

  test('suspended → withdrawn directly; reason required (1–500, not blank) and status from the enum', async ({
    harness: h,
    world,
  }) => {
    const entity: TrustedEntity = await registerEntity(
      h,
      world,
      issuerBody([(await makeCa('Reason CA')).pem], { name: 'Reasoned' }),
    );
    const path = entitiesPath(world, `/${entity.id}/status`);
    const before = await sequenceOf(h, world.ecosystemId);
    for (const body of [
      { status: 'suspended' },
      { status: 'suspended', reason: '' },
      { status: 'suspended', reason: '   ' },
      { status: 'suspended', reason: 'x'.repeat(501) },
      { status: 'paused', reason: 'r' },
      { reason: 'r' },
    ]) {
      const refused = await h.call('POST', path, { token: world.tokens.lead, body });
      expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
      expect(refused.body.details.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
    expectStatus(
      await h.call('POST', path, { token: world.tokens.lead, body: { status: 'suspended', reason: 'r'.repeat(500) } }),
      200,
    );
    expectStatus(
      await h.call('POST', path, { token: world.tokens.lead, body: { status: 'withdrawn', reason: 'gone' } }),
      200,
    );
  });

  test('the history is append-only in the database itself', async ({ harness: h, world }) => {
    await registerEntity(h, world, issuerBody([(await makeCa('Append CA')).pem], { name: 'Append only' }));
    const { sql } = await import('drizzle-orm');
    await expect(
      h.database.db.execute(sql`update ecosystem.trusted_entity_history set reason = 'rewritten'`),
    ).rejects.toThrow();
    await expect(h.database.db.execute(sql`delete from ecosystem.trusted_entity_history`)).rejects.toThrow();
  });
});
