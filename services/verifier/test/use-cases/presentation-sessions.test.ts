import { describe, expect } from 'vitest';
import { decodeJwt } from 'jose';
import { pageWindow } from '@tessera/service-kit';
import { createPresentationSession } from '../../src/use-cases/create-presentation-session.js';
import { readPresentationSessions } from '../../src/use-cases/read-presentation-sessions.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import { createPidSession, useCaseTest as test } from '../support/use-cases.js';

// Presentation sessions (VERIFIER.md, Sessions): created from a DCQL query for one of
// the organisation's verifiers, read with their state as of the clock, expired when
// their time is up — each change published on `verifier.v1.session.updated`.
const firstPage = pageWindow({ pageNumber: 1, pageSize: 10 });

describe('presentation session use cases', () => {
  test('a redirect session is created with its request object signed and stored, and announced', async ({ world }) => {
    const { deps, events } = world;
    const created = await createPresentationSession(deps, {
      orgId: ORG,
      verifierId: world.desk,
      body: { dcql: sdJwtQuery(), responseMode: 'direct_post' },
    });
    const { session } = created;
    expect(session).toMatchObject({
      orgId: ORG,
      state: 'RequestCreated',
      responseMode: 'direct_post',
      publicVerifierId: world.desk,
      responseUri: `${deps.baseUrl}/oid4vp/authorization-responses/${session.authorizationRequestId}`,
    });
    expect(session.clientId).toMatch(/^x509_hash:/);
    expect(session.expiresAt.getTime() - created.createdAt.getTime()).toBe(deps.sessionTtlSeconds * 1000);
    expect(created.dcApiRequest).toBeUndefined();
    // The QR code names the request by reference; the object signed at creation is what the wallet will fetch.
    expect(new URL(session.authorizationRequestUri!).searchParams.get('request_uri')).toBe(session.requestUri);
    expect(decodeJwt(session.requestObject!)).toMatchObject({
      client_id: session.clientId,
      nonce: session.nonce,
      state: session.payloadState,
      response_uri: session.responseUri,
      dcql_query: { credentials: sdJwtQuery().credentials },
    });
    await events.waitFor(session.id, 'RequestCreated');
  });

  test('a DC API session hands the browser its signed request and has no request_uri', async ({ world }) => {
    const created = await createPresentationSession(world.deps, {
      orgId: ORG,
      verifierId: world.desk,
      body: { dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: ['https://rp.example'] },
    });
    expect(created.session).toMatchObject({
      responseMode: 'dc_api',
      requestUri: null,
      expectedOrigins: ['https://rp.example'],
    });
    expect(created.dcApiRequest).toMatchObject({
      protocol: 'openid4vp-v1-signed',
      data: { request: expect.any(String) },
    });
    expect(decodeJwt((created.dcApiRequest!.data as { request: string }).request)).toMatchObject({
      nonce: created.session.nonce,
      response_mode: 'dc_api',
      expected_origins: ['https://rp.example'],
    });
  });

  test('an invalid query, bad options or an unknown verifier create nothing', async ({ world }) => {
    const { deps } = world;
    const before = (await readPresentationSessions(deps, { orgId: ORG, filters: {}, page: firstPage })) as {
      total: number;
    };
    const attempt = (verifierId: string, body: Record<string, unknown>) =>
      createPresentationSession(deps, { orgId: ORG, verifierId, body: body as never });
    await expect(attempt(world.desk, { dcql: { credentials: [] }, responseMode: 'direct_post' })).rejects.toMatchObject(
      {
        statusCode: 400,
        code: 'INVALID_DCQL',
      },
    );
    await expect(attempt(world.desk, { dcql: sdJwtQuery(), responseMode: 'dc_api' })).rejects.toMatchObject({
      statusCode: 400,
      details: [{ path: '/expectedOrigins' }],
    });
    await expect(
      attempt('no-such-verifier', { dcql: sdJwtQuery(), responseMode: 'direct_post' }),
    ).rejects.toMatchObject({
      statusCode: 404,
      code: 'VERIFIER_NOT_FOUND',
    });
    const after = (await readPresentationSessions(deps, { orgId: ORG, filters: {}, page: firstPage })) as {
      total: number;
    };
    expect(after.total).toBe(before.total);
  });

  test('a session read after its time is up reads expired, and its expiry is persisted and published once', async ({
    world,
  }) => {
    const { deps, events } = world;
    const session = await createPidSession(world);
    const read = () => readPresentationSessions(deps, { orgId: ORG, id: session.id, filters: {}, page: firstPage });
    expect(await read()).toMatchObject({ kind: 'one', session: { id: session.id, state: 'RequestCreated' } });
    deps.clock.offsetMs = (deps.sessionTtlSeconds + 1) * 1000;
    try {
      expect(await read()).toMatchObject({
        kind: 'one',
        session: { state: 'Error', errorCode: 'SESSION_EXPIRED' },
      });
      await read();
    } finally {
      deps.clock.offsetMs = 0;
    }
    await events.waitFor(session.id, 'Error');
    expect(events.of(session.id, 'Error')).toHaveLength(1);
  });

  test('sessions are listed newest first, filtered, and only the organisation’s own', async ({ world }) => {
    const { deps } = world;
    const older = await createPidSession(world, { payloadState: 'list-filter-a' });
    deps.clock.offsetMs = 1000;
    const newer = await createPidSession(world, { payloadState: 'list-filter-b' });
    deps.clock.offsetMs = 0;
    const page = await readPresentationSessions(deps, { orgId: ORG, filters: {}, page: firstPage });
    expect(page.kind === 'page' && page.rows.map((row) => row.id).slice(0, 2)).toEqual([newer.id, older.id]);
    const filtered = await readPresentationSessions(deps, {
      orgId: ORG,
      filters: { payloadState: older.payloadState },
      page: firstPage,
    });
    expect(filtered).toMatchObject({ kind: 'page', total: 1, rows: [{ id: older.id }] });
    await expect(
      readPresentationSessions(deps, { orgId: OTHER_ORG, id: older.id, filters: {}, page: firstPage }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
