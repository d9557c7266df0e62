import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest, temporaryDirectory } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { createIssuer, issuePid, newHolder, signStatusList, type TestIssuer } from '../support/issuers.js';
import {
  createList,
  newListUri,
  startStatusListService,
  type StatusListService,
} from '../support/status-list-service.js';

// The project's own status list service, running for real on a loopback port
// (PGlite under a temporary directory): the verifier fetches lists from it over HTTP.
const test = e2eTest()
  .extend('dataDir', { scope: 'file' }, temporaryDirectory('verifier-status-'))
  .extend('statusList', { scope: 'file' }, startStatusListService);

/** Publishes a 2-bit list signed by `issuer`: index 1 revoked (INVALID), index 2 suspended, the rest VALID. */
async function publishList(statusList: StatusListService, issuer: TestIssuer): Promise<string> {
  const { id, uri } = newListUri(statusList);
  await createList(statusList, id, {
    jwt: await signStatusList(issuer, { uri, bits: 2, statuses: { 1: 0x01, 2: 0x02 } }),
  });
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
