import { describe, expect } from 'vitest';
import { answerWithCredential } from '../support/answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { ORG, OTHER_ORG, oid4vpPath } from '../support/management.js';
import { storedReads } from '../support/stored-rows.js';

// Who read what (issue 15, item 4): every read that hands out presentation data is
// recorded with the caller's token subject, the route and the time; refused reads
// record nothing; the list is for owners and admins of the session's organisation.
const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest();

/** A call to ORG's management API as `sub` with `roles` there. */
async function callAs(
  h: Harness,
  sub: string,
  roles: string[],
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  org = ORG,
) {
  return h.call(method, `${oid4vpPath(org)}/${path}`, {
    headers: await h.idp.authHeader(org, roles, { sub }),
    ...(body !== undefined ? { body } : {}),
  });
}

const readsOf = (h: Harness, id: string, roles = ['admin'], query = '') =>
  callAs(h, 'auditor', roles, 'GET', `verifier-presentation-reads?id=${encodeURIComponent(id)}${query}`);

describe('verifier-presentation-reads', () => {
  test('records each successful read with subject, route and time, newest first; refused reads record nothing', async ({
    harness: h,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    // Not verified yet: 409, nothing handed out, nothing recorded.
    expect(
      (
        await callAs(
          h,
          'early-reader',
          ['verifier'],
          'GET',
          `verifier-presentation-response?verificationPresentationId=${session.id}`,
        )
      ).status,
    ).toBe(409);
    expect((await answerWithCredential(e, 'sd-jwt', session)).status).toBe(200);
    // A wrong response code is refused before any data: not a read either.
    expect(
      (
        await callAs(
          h,
          'fixation',
          ['verifier'],
          'GET',
          `verifier-presentation-response?verificationPresentationId=${session.id}&responseCode=wrong`,
        )
      ).status,
    ).toBe(403);
    h.clock.offsetMs = 1000;
    const first = await callAs(
      h,
      'rp-backend',
      ['verifier'],
      'GET',
      `verifier-presentation-response?verificationPresentationId=${session.id}`,
    );
    expect(first.status).toBe(200);
    h.clock.offsetMs = 2000;
    expect(
      (
        await callAs(
          h,
          'rp-backend-2',
          ['verifier'],
          'GET',
          `verifier-presentation-response?verificationPresentationId=${session.id}`,
        )
      ).status,
    ).toBe(200);
    h.clock.offsetMs = 0;

    const listed = await readsOf(h, session.id);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ totalItems: 2, page: 1 });
    expect(listed.body.data.data.map((read: { subject: string }) => read.subject)).toEqual([
      'rp-backend-2',
      'rp-backend',
    ]);
    expect(listed.body.data.data[0]).toEqual({
      sessionId: session.id,
      subject: 'rp-backend-2',
      route: 'verifier-presentation-response',
      readAt: expect.any(String),
    });
    expect(
      Date.parse(listed.body.data.data[0].readAt) - Date.parse(listed.body.data.data[1].readAt),
    ).toBeGreaterThanOrEqual(900);
    // Paged: one per page, newest first.
    const second = await readsOf(h, session.id, ['owner'], '&pageSize=1&pageNumber=2');
    expect(second.body.data).toMatchObject({ totalItems: 2, totalPages: 2, page: 2, pageSize: 1 });
    expect(second.body.data.data.map((read: { subject: string }) => read.subject)).toEqual(['rp-backend']);
    // The record holds who, when and where — no claim value.
    const rows = await storedReads(h.testDb.database, session.id);
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const value of ['Erika', 'Mustermann']) expect(stored).not.toContain(value);
    expect(JSON.stringify(first.body)).toContain('Erika');
  });

  test('records the DC API answer that hands out verified data, as read by the caller', async ({
    harness: h,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    // A refused answer (wrong origin) hands nothing out.
    expect(
      (
        await callAs(h, 'rp-frontend', ['verifier'], 'POST', 'verify-authorization-response', {
          verificationSessionId: session.id,
          authorizationResponse: { error: 'access_denied' },
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(400);
    expect((await readsOf(h, session.id)).body.data.totalItems).toBe(0);
    const answered = await answerWithCredential(
      {
        ...e,
        verifyDcApi: (body) => callAs(h, 'rp-frontend', ['verifier'], 'POST', 'verify-authorization-response', body),
      },
      'sd-jwt',
      session,
      ORIGIN,
    );
    expect(answered.status).toBe(200);
    expect(answered.body.data.state).toBe('ResponseVerified');
    const listed = await readsOf(h, session.id, ['owner']);
    expect(listed.body.data.data).toEqual([
      {
        sessionId: session.id,
        subject: 'rp-frontend',
        route: 'verify-authorization-response',
        readAt: expect.any(String),
      },
    ]);
  });

  test('a wallet error settled over the DC API hands out no data and records no read', async ({
    harness: h,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const answered = await callAs(h, 'rp-frontend', ['verifier'], 'POST', 'verify-authorization-response', {
      verificationSessionId: session.id,
      authorizationResponse: { error: 'access_denied' },
      origin: ORIGIN,
    });
    expect(answered.body.data.state).toBe('Error');
    expect((await readsOf(h, session.id)).body.data).toMatchObject({ totalItems: 0, data: [] });
  });

  test('owners and admins only: verifier and member 403, other organisation 403, no token 401', async ({
    harness: h,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    for (const role of ['owner', 'admin']) expect((await readsOf(h, session.id, [role])).status).toBe(200);
    for (const role of ['verifier', 'member']) {
      const refused = await readsOf(h, session.id, [role]);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'FORBIDDEN' });
    }
    expect((await h.call('GET', `${oid4vpPath()}/verifier-presentation-reads?id=${session.id}`)).status).toBe(401);
    expect(
      (
        await h.call('GET', `${oid4vpPath()}/verifier-presentation-reads?id=${session.id}`, {
          headers: await h.idp.authHeader(OTHER_ORG, ['owner']),
        })
      ).status,
    ).toBe(403);
  });

  test("another organisation's, unknown and malformed ids are 404; a missing id or bad page 400", async ({
    harness: h,
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const other = await callAs(
      h,
      'auditor',
      ['owner'],
      'GET',
      `verifier-presentation-reads?id=${session.id}`,
      undefined,
      OTHER_ORG,
    );
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('NOT_FOUND');
    expect((await readsOf(h, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await readsOf(h, 'not-a-uuid')).status).toBe(404);
    const missing = await callAs(h, 'auditor', ['owner'], 'GET', 'verifier-presentation-reads');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');
    expect((await readsOf(h, session.id, ['owner'], '&pageSize=101')).status).toBe(400);
    expect((await readsOf(h, session.id, ['owner'], '&pageNumber=0')).status).toBe(400);
  });
});
