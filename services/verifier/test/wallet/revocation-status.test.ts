import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { loadStatusListConfig, startStatusList } from '@tessera/status-list/server';
import { silentLogger } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest, temporaryDirectory } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { createIssuer, issuePid, newHolder, signStatusList, type TestIssuer } from '../support/issuers.js';

// The project's own status list service, running for real on a loopback port
// (PGlite under a temporary directory): the verifier fetches lists from it over HTTP.
const API_KEY = 'status-list-test-api-key-0123456789';

type StatusListService = Awaited<ReturnType<typeof startStatusList>>;

const test = e2eTest()
  .extend('dataDir', { scope: 'file' }, temporaryDirectory('verifier-status-'))
  .extend('statusList', { scope: 'file' }, async ({ dataDir }, { onCleanup }): Promise<StatusListService> => {
    const service = await startStatusList(
      loadStatusListConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        API_KEY,
        DATA_DIR: dataDir,
        MIGRATE_ON_START: 'true',
        LOG_LEVEL: 'silent',
      }),
      silentLogger(),
    );
    onCleanup(() => service.close());
    return service;
  });

/** Publishes a 2-bit list signed by `issuer`: index 1 revoked (INVALID), index 2 suspended, the rest VALID. */
async function publishList(statusList: StatusListService, issuer: TestIssuer): Promise<string> {
  const id = randomUUID();
  const uri = `${statusList.url}/status-lists/${id}`;
  const jwt = await signStatusList(issuer, { uri, bits: 2, statuses: { 1: 0x01, 2: 0x02 } });
  const response = await fetch(`${statusList.url}/status-lists`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ id, jwt }),
  });
  expect(response.status).toBe(201);
  return uri;
}

/** A wallet answers a new session with a PID of the setting's issuer pointing at `status`. */
async function presentWithStatus(e: E2e, status: { uri: string; idx: number }) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const presentation = await presentPid(await issuePid(e.issuer, holder, { status }), holder, requestFacts(resolved));
  const answered = await submitResponse(
    e.wallet,
    resolved,
    await buildResponse(e.wallet, resolved, { pid: [presentation] }),
  );
  return { session, answered, record: await e.readSession(session.id) };
}

describe('status lists fetched from the status list service', () => {
  test('a VALID entry verifies and the result names the status', async ({ e2e: e, statusList }) => {
    const uri = await publishList(statusList, e.issuer);
    const { session, answered } = await presentWithStatus(e, { uri, idx: 0 });
    expect(answered.status).toBe(200);
    expect((await e.readResult(session.id)).body.data.presentations[0].status).toEqual({
      uri,
      idx: 0,
      status: 'VALID',
      format: 'jwt',
    });
  });

  test.for([
    [1, 'CREDENTIAL_REVOKED'],
    [2, 'CREDENTIAL_SUSPENDED'],
  ] as const)('entry %i → %s', async ([idx, code], { e2e: e, statusList }) => {
    const uri = await publishList(statusList, e.issuer);
    const { answered, record } = await presentWithStatus(e, { uri, idx });
    expect(answered.status).toBe(400);
    expect(record).toMatchObject({ state: 'Error', error: { code } });
  });

  test('a list signed by another issuer, or one that does not exist → STATUS_LIST_UNAVAILABLE', async ({
    e2e: e,
    statusList,
  }) => {
    const other = await publishList(statusList, await createIssuer('Other Issuer'));
    expect((await presentWithStatus(e, { uri: other, idx: 0 })).record.error?.code).toBe('STATUS_LIST_UNAVAILABLE');
    const missing = `${statusList.url}/status-lists/${randomUUID()}`;
    expect((await presentWithStatus(e, { uri: missing, idx: 0 })).record.error?.code).toBe('STATUS_LIST_UNAVAILABLE');
  });
});
