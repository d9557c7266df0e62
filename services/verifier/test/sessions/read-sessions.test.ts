import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';

// ORG's verifiers `desk` and `gate`, and OTHER_ORG's own `desk`.
const test = verifierTest
  .extend('create', { scope: 'file' }, async ({ api, desk: _desk }) => {
    for (const [org, verifierId] of [
      [ORG, 'gate'],
      [OTHER_ORG, 'desk'],
    ] as const)
      expect((await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId }, { org })).status).toBe(201);
    return async (payload: Record<string, unknown> = {}, verifierId = 'desk', org = ORG) =>
      (
        await api(
          'POST',
          `/v1/orgs/${org}/oid4vp/presentation?verifierId=${verifierId}`,
          { dcql: sdJwtQuery(), responseMode: 'direct_post', ...payload },
          { org },
        )
      ).body.data;
  })
  .extend(
    'read',
    { scope: 'file' },
    ({ api }) =>
      (query: string, org = ORG) =>
        api('GET', `/v1/orgs/${org}/oid4vp/verifier-presentation${query}`, undefined, { org }),
  );

describe('verifier-presentation', () => {
  test('filters by every seed attribute, newest first, and returns the single record for id', async ({
    create,
    read,
  }) => {
    const first = await create({ payloadState: 'filter-1' }, 'gate');
    const second = await create({ payloadState: 'filter-2' }, 'gate');
    const byVerifier = (await read('?publicVerifierId=gate')).body.data;
    expect(byVerifier.data.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    for (const [name, value] of [
      ['payloadState', 'filter-1'],
      ['authorizationRequestUri', first.authorizationRequestUri],
      ['authorizationRequestId', first.authorizationRequestId],
      ['nonce', first.nonce],
    ]) {
      const page = (await read(`?${new URLSearchParams({ [name]: value })}`)).body.data;
      expect(
        page.data.map((s: { id: string }) => s.id),
        name,
      ).toEqual([first.id]);
    }
    const single = (await read(`?id=${first.id}`)).body;
    expect(single).toMatchObject({
      statusCode: 200,
      data: { id: first.id, state: 'RequestCreated', publicVerifierId: 'gate' },
    });
    expect(single.data.dcApiRequest).toBeUndefined();
    expect(single.data.totalItems).toBeUndefined();
    const byState = (await read('?state=RequestCreated&publicVerifierId=gate&pageSize=1')).body.data;
    expect(byState).toMatchObject({ totalItems: 2, totalPages: 2, pageSize: 1 });
  });

  test("isolates organisations: another organisation's session is 404 by id and absent from lists", async ({
    create,
    read,
  }) => {
    const theirs = await create({}, 'desk', OTHER_ORG);
    expect((await read(`?id=${theirs.id}`)).status).toBe(404);
    expect((await read(`?authorizationRequestId=${theirs.authorizationRequestId}`)).body.data.totalItems).toBe(0);
    expect((await read(`?id=${theirs.id}`, OTHER_ORG)).status).toBe(200);
    expect((await read('?id=not-a-uuid')).status).toBe(404);
  });

  test('hides DC API request fields from the record', async ({ create, read }) => {
    const session = await create({ responseMode: 'dc_api.jwt', expectedOrigins: ['https://rp.example'] });
    const record = (await read(`?id=${session.id}`)).body.data;
    expect(record).toMatchObject({ responseMode: 'dc_api.jwt', expectedOrigins: ['https://rp.example'] });
    for (const field of ['dcApiRequest', 'authorizationRequestUri', 'requestUri', 'responseUri'])
      expect(record[field]).toBeUndefined();
  });

  test('reads an expired session as Error SESSION_EXPIRED and publishes the change once', async ({
    harness: h,
    sessionEvents,
    create,
    read,
  }) => {
    const session = await create({ expiresInSeconds: 5 });
    await sessionEvents.waitFor(session.id, 'RequestCreated');
    h.clock.offsetMs = 6000;
    try {
      const record = (await read(`?id=${session.id}`)).body.data;
      expect(record).toMatchObject({
        state: 'Error',
        error: { code: 'SESSION_EXPIRED', message: expect.stringMatching(/expired/) },
      });
      expect((await read('?state=Error')).body.data.data.map((s: { id: string }) => s.id)).toContain(session.id);
      expect((await read('?state=RequestCreated')).body.data.data.map((s: { id: string }) => s.id)).not.toContain(
        session.id,
      );
      expect(await sessionEvents.waitFor(session.id, 'Error')).toEqual({ id: session.id, orgId: ORG, state: 'Error' });
      await read(`?id=${session.id}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sessionEvents.of(session.id, 'Error')).toHaveLength(1);
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  test('filters by creation time (createdAfter, createdBefore: both strict), with the other filters and paging', async ({
    harness: h,
    create,
    read,
  }) => {
    const made: Array<{ id: string; createdAt: string }> = [];
    try {
      for (const offsetMs of [3_600_000, 3_610_000, 3_620_000]) {
        h.clock.offsetMs = offsetMs;
        made.push(await create({}, 'gate'));
      }
    } finally {
      h.clock.offsetMs = 0;
    }
    const [first, second, third] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    const ids = async (query: Record<string, string>) => {
      const answer = await read(`?${new URLSearchParams({ publicVerifierId: 'gate', ...query })}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return (answer.body.data.data as Array<{ id: string }>).map((session) => session.id);
    };
    expect(await ids({ createdAfter: first.createdAt })).toEqual([third.id, second.id]);
    expect(await ids({ createdBefore: third.createdAt })).toEqual(expect.arrayContaining([second.id, first.id]));
    expect(await ids({ createdBefore: third.createdAt })).not.toContain(third.id);
    expect(await ids({ createdAfter: first.createdAt, createdBefore: third.createdAt })).toEqual([second.id]);
    // Any offset names the same instant: first's creation written in +01:00 (the `+` encoded by URLSearchParams).
    const inBerlin = new Date(Date.parse(first.createdAt) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await ids({ createdAfter: inBerlin, createdBefore: third.createdAt })).toEqual([second.id]);

    const paged = await read(
      `?${new URLSearchParams({ publicVerifierId: 'gate', createdAfter: first.createdAt, pageSize: '1', pageNumber: '2' })}`,
    );
    expect(paged.body.data).toMatchObject({ totalItems: 2, totalPages: 2, page: 2, pageSize: 1 });
    expect(paged.body.data.data.map((session: { id: string }) => session.id)).toEqual([second.id]);
    expect(await ids({ createdAfter: third.createdAt })).toEqual([]);
    // With `id` the one record is answered, as with every filter.
    expect((await read(`?id=${first.id}&createdAfter=${encodeURIComponent(third.createdAt)}`)).body.data.id).toBe(
      first.id,
    );
  });

  test('refuses a malformed or reversed creation window with 400 VALIDATION_FAILED at its field', async ({ read }) => {
    for (const [name, value] of [
      ['createdAfter', 'yesterday'],
      ['createdAfter', '2026-01-01'],
      ['createdAfter', '2026-01-01T10:00:00'],
      ['createdBefore', '2026-13-01T10:00:00Z'],
      ['createdBefore', ''],
    ] as Array<[string, string]>) {
      const answer = await read(`?${new URLSearchParams({ [name]: value })}`);
      expect(answer.status, `${name}=${value}`).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(answer.body), `${name}=${value}`).toContain(name);
    }
    for (const before of ['2026-01-01T10:00:00Z', '2026-01-01T09:00:00Z']) {
      const reversed = await read(`?createdAfter=2026-01-01T10:00:00Z&createdBefore=${before}`);
      expect(reversed.status).toBe(400);
      expect(reversed.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: '/createdBefore', message: 'must be later than createdAfter' }],
      });
    }
  });

  test('refuses malformed filters', async ({ read }) => {
    expect((await read('?state=Done')).status).toBe(400);
    expect((await read('?pageSize=0')).status).toBe(400);
    expect((await read('?pageNumber=x')).status).toBe(400);
  });
});
