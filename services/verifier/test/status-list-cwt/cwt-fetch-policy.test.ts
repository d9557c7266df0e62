import { randomUUID } from 'node:crypto';
import { test as base, describe, expect } from 'vitest';
import { e2eFixture } from '../support/fixtures.js';
import { signStatusListCwt } from '../support/issuers.js';
import { answerWithStatus, type StatusSetting } from '../status-list-trust/support.js';
import { startStatusListServer, type StatusListServer } from '../verification/support/status-list-server.js';
import { verificationErrorText } from '../support/session-error-texts.js';

// CWT status lists are fetched under the one network policy (status-list-network/):
// under production defaults (NODE_ENV=test) http: and non-public addresses are refused
// before any connection, STATUS_LIST_INTERNAL_HOSTS opens named hosts. The server
// counts every request, so a refused fetch is seen to never reach it.

const PRODUCTION_DEFAULTS = {
  STATUS_LIST_ALLOW_HTTP: '',
  STATUS_LIST_INTERNAL_HOSTS: '',
  STATUS_LIST_DENY_PRIVATE_ADDRESSES: '',
};

const test = base
  .extend('lists', { scope: 'file' }, async ({}, { onCleanup }): Promise<StatusListServer> => {
    const server = await startStatusListServer();
    onCleanup(() => server.close());
    return server;
  })
  .extend(
    'loopbackRefused',
    { scope: 'file' },
    e2eFixture({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true' } }),
  )
  .extend(
    'internalHosts',
    { scope: 'file' },
    e2eFixture({
      config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true', STATUS_LIST_INTERNAL_HOSTS: 'localhost' },
    }),
  )
  .extend(
    'httpRefused',
    { scope: 'file' },
    e2eFixture({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_INTERNAL_HOSTS: 'localhost' } }),
  );

/** Serves a CWT list of the setting's issuer (entry 1 revoked) under `host`, and answers with entry `idx`. */
async function presentWithCwtAt(setting: StatusSetting, lists: StatusListServer, host: string, idx = 0) {
  const path = `/cwt-policy/${randomUUID()}`;
  const uri = `http://${host}:${new URL(lists.baseUrl).port}${path}`;
  const body = await signStatusListCwt(setting.e2e.issuer, { uri, bits: 1, statuses: { 1: 1 } });
  lists.routes.set(path, { body, contentType: 'application/statuslist+cwt' });
  const outcome = await answerWithStatus(setting, setting.e2e.issuer, { uri, idx });
  return { ...outcome, path, uri, hits: () => lists.hits.get(path) ?? 0 };
}

/** A status list refused or unreadable, whatever the reason: one sentence (test/support/session-error-texts.ts). */
const UNAVAILABLE = verificationErrorText('STATUS_LIST_UNAVAILABLE', 'pid');

describe('the status list network policy holds for CWT lists', () => {
  test.for(['127.0.0.1', 'localhost'])(
    'a loopback host (%s) is refused before any connection',
    async (host, { lists, loopbackRefused }) => {
      const outcome = await presentWithCwtAt(loopbackRefused, lists, host);
      // The address and its range are the service's to know, not the session's (issue 28, item 3).
      expect(outcome.record).toMatchObject({
        state: 'Error',
        error: { code: 'STATUS_LIST_UNAVAILABLE', message: UNAVAILABLE },
      });
      expect(JSON.stringify(outcome.record)).not.toContain('loopback');
      expect(outcome.hits()).toBe(0);
    },
  );

  test('a host in STATUS_LIST_INTERNAL_HOSTS is fetched (the CWT form named in the result); one not listed is not', async ({
    lists,
    internalHosts,
  }) => {
    const valid = await presentWithCwtAt(internalHosts, lists, 'localhost', 0);
    expect(valid.record.state).toBe('ResponseVerified');
    expect((await internalHosts.e2e.readResult(valid.session.id)).body.data.presentations[0].status).toEqual({
      uri: valid.uri,
      idx: 0,
      status: 'VALID',
      format: 'cwt',
    });
    expect((await presentWithCwtAt(internalHosts, lists, 'localhost', 1)).record.error?.code).toBe(
      'CREDENTIAL_REVOKED',
    );
    const unlisted = await presentWithCwtAt(internalHosts, lists, '127.0.0.1');
    expect(unlisted.record.error?.code).toBe('STATUS_LIST_UNAVAILABLE');
    expect(unlisted.hits()).toBe(0);
  });

  test('http: is refused unless STATUS_LIST_ALLOW_HTTP=true', async ({ lists, httpRefused }) => {
    const outcome = await presentWithCwtAt(httpRefused, lists, 'localhost');
    expect(outcome.record).toMatchObject({
      state: 'Error',
      error: { code: 'STATUS_LIST_UNAVAILABLE', message: UNAVAILABLE },
    });
    expect(outcome.hits()).toBe(0);
  });
});
