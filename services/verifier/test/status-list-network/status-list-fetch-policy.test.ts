import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eFixture } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { issuePid, newHolder, signStatusList } from '../support/issuers.js';
import { verificationErrorText } from '../support/session-error-texts.js';

// Status list fetches cannot be steered inside the network. The verifier runs with
// NODE_ENV=test, whose defaults are production's (http refused, non-public addresses
// refused); each app below sets only what its case needs. The status list is served
// by a plain HTTP server on loopback that records every request it receives, so a
// refused fetch is seen to never reach it. Wallet and relying party talk to the
// verifier over real HTTP.
/** The status list server: the tokens it serves by path, and every request it received. */
interface RecordingServer {
  port: number;
  hits: Array<{ path: string; host: string | undefined }>;
  tokens: Map<string, string>;
}

async function startRecordingServer(onCleanup: (cleanup: () => Promise<void>) => void): Promise<RecordingServer> {
  const hits: RecordingServer['hits'] = [];
  const tokens = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    hits.push({ path: request.url ?? '', host: request.headers.host });
    const token = tokens.get(request.url ?? '');
    response.writeHead(token ? 200 : 404, { 'content-type': 'application/statuslist+jwt' }).end(token ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, hits, tokens };
}

// The harness names loopback as internal and allows http for the other suites; '' unsets both here.
const PRODUCTION_DEFAULTS = {
  STATUS_LIST_ALLOW_HTTP: '',
  STATUS_LIST_INTERNAL_HOSTS: '',
  STATUS_LIST_DENY_PRIVATE_ADDRESSES: '',
};

// One end-to-end setting per case below, each with only what its case sets.
const test = base
  .extend('lists', { scope: 'file' }, async ({}, { onCleanup }) => startRecordingServer(onCleanup))
  .extend(
    'loopbackRefused',
    { scope: 'file' },
    e2eFixture({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true' } }),
  )
  .extend(
    'internalHosts',
    { scope: 'file' },
    e2eFixture({
      config: {
        ...PRODUCTION_DEFAULTS,
        STATUS_LIST_ALLOW_HTTP: 'true',
        STATUS_LIST_INTERNAL_HOSTS: 'status.tessera.example,localhost',
      },
    }),
  )
  .extend(
    'httpRefused',
    { scope: 'file' },
    e2eFixture({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_INTERNAL_HOSTS: 'localhost' } }),
  )
  .extend(
    'privateOpen',
    { scope: 'file' },
    e2eFixture({
      config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true', STATUS_LIST_DENY_PRIVATE_ADDRESSES: 'false' },
    }),
  );

/** Publishes a list signed by the e2e issuer at `host` (entry 1 revoked), presents a credential naming entry `idx`, and returns the session afterwards. */
async function presentWithStatusAt(e: E2e, { port, tokens }: RecordingServer, host: string, idx = 0) {
  const path = `/lists/${Math.random().toString(36).slice(2)}`;
  const uri = `http://${host}:${port}${path}`;
  tokens.set(path, await signStatusList(e.issuer, { uri, bits: 1, statuses: { 1: 1 } }));
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const presentation = await presentPid(
    await issuePid(e.issuer, holder, { status: { uri, idx } }),
    holder,
    requestFacts(resolved),
  );
  const answered = await submitResponse(
    e.wallet,
    resolved,
    await buildResponse(e.wallet, resolved, { pid: [presentation] }),
  );
  return { path, uri, answered, record: await e.readSession(session.id), result: await e.readResult(session.id) };
}

const hitsOf = ({ hits }: RecordingServer, path: string) => hits.filter((hit) => hit.path === path);

/** A status list refused or unreadable, whatever the reason: one sentence (test/support/session-error-texts.ts). */
const UNAVAILABLE = verificationErrorText('STATUS_LIST_UNAVAILABLE', 'pid');

describe('addresses that are not public are refused (STATUS_LIST_UNAVAILABLE), before any connection', () => {
  test.for([
    ['a loopback IP literal', '127.0.0.1', 'loopback'],
    [
      'a host name that resolves to loopback (checked by the socket’s lookup, on the address it connects to)',
      'localhost',
      'loopback',
    ],
  ] as const)('%s', async ([_case, host, range], { lists, loopbackRefused: { e2e: e } }) => {
    const { path, answered, record } = await presentWithStatusAt(e, lists, host);
    expect(answered.status).toBe(400);
    // The address and its range are the service's to know, not the session's (issue 28, item 3).
    expect(record).toMatchObject({ state: 'Error', error: { code: 'STATUS_LIST_UNAVAILABLE', message: UNAVAILABLE } });
    expect(JSON.stringify(record)).not.toContain(range);
    expect(hitsOf(lists, path)).toEqual([]);
  });
});

describe('STATUS_LIST_INTERNAL_HOSTS lets a listed host be served inside the network', () => {
  test('a listed host verifies, the fetch keeps the name in Host, and a revoked entry is still seen', async ({
    lists,
    internalHosts: { e2e: e },
  }) => {
    const valid = await presentWithStatusAt(e, lists, 'localhost', 0);
    expect(valid.answered.status).toBe(200);
    expect(valid.result.body.data.presentations[0].status).toEqual({
      uri: valid.uri,
      idx: 0,
      status: 'VALID',
      format: 'jwt',
    });
    expect(hitsOf(lists, valid.path)).toEqual([{ path: valid.path, host: `localhost:${lists.port}` }]);
    const revoked = await presentWithStatusAt(e, lists, 'localhost', 1);
    expect(revoked.record.error!.code).toBe('CREDENTIAL_REVOKED');
  });

  test('a host not listed is still refused, even on the same address', async ({ lists, internalHosts: { e2e: e } }) => {
    const { path, record } = await presentWithStatusAt(e, lists, '127.0.0.1');
    expect(record.error!.code).toBe('STATUS_LIST_UNAVAILABLE');
    expect(hitsOf(lists, path)).toEqual([]);
  });
});

describe('http: is refused unless STATUS_LIST_ALLOW_HTTP=true', () => {
  test('an internal host over http is STATUS_LIST_UNAVAILABLE, nothing fetched', async ({
    lists,
    httpRefused: { e2e: e },
  }) => {
    const { path, record } = await presentWithStatusAt(e, lists, 'localhost');
    expect(record).toMatchObject({ state: 'Error', error: { code: 'STATUS_LIST_UNAVAILABLE', message: UNAVAILABLE } });
    expect(hitsOf(lists, path)).toEqual([]);
  });
});

describe('STATUS_LIST_DENY_PRIVATE_ADDRESSES=false opens every address (what development does by default)', () => {
  test('a loopback status list verifies', async ({ lists, privateOpen: { e2e: e } }) => {
    const { path, answered } = await presentWithStatusAt(e, lists, '127.0.0.1');
    expect(answered.status).toBe(200);
    expect(hitsOf(lists, path)).toHaveLength(1);
  });
});
