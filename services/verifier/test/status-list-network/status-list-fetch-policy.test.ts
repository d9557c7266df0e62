import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2e, type E2e } from '../support/e2e.js';
import { sdJwtQuery } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { issuePid, newHolder, signStatusList } from '../support/issuers.js';

// Status list fetches cannot be steered inside the network. The verifier runs with
// NODE_ENV=test, whose defaults are production's (http refused, non-public addresses
// refused); each app below sets only what its case needs. The status list is served
// by a plain HTTP server on loopback that records every request it receives, so a
// refused fetch is seen to never reach it. Wallet and relying party talk to the
// verifier over real HTTP.
let server: Server;
let port: number;
const hits: Array<{ path: string; host: string | undefined }> = [];
const tokens = new Map<string, string>();

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push({ path: request.url ?? '', host: request.headers.host });
    const token = tokens.get(request.url ?? '');
    response.writeHead(token ? 200 : 404, { 'content-type': 'application/statuslist+jwt' }).end(token ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// The harness names loopback as internal and allows http for the other suites; '' unsets both here.
const PRODUCTION_DEFAULTS = { STATUS_LIST_ALLOW_HTTP: '', STATUS_LIST_INTERNAL_HOSTS: '', STATUS_LIST_DENY_PRIVATE_ADDRESSES: '' };

/** Publishes a list signed by the e2e issuer at `host` (entry 1 revoked), presents a credential naming entry `idx`, and returns the session afterwards. */
async function presentWithStatusAt(e: E2e, host: string, idx = 0) {
  const path = `/lists/${Math.random().toString(36).slice(2)}`;
  const uri = `http://${host}:${port}${path}`;
  tokens.set(path, await signStatusList(e.issuer, { uri, bits: 1, statuses: { 1: 1 } }));
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const presentation = await presentPid(await issuePid(e.issuer, holder, { status: { uri, idx } }), holder, requestFacts(resolved));
  const answered = await submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] }));
  return { path, uri, answered, record: await e.readSession(session.id), result: await e.readResult(session.id) };
}

const hitsOf = (path: string) => hits.filter((hit) => hit.path === path);

describe('addresses that are not public are refused (STATUS_LIST_UNAVAILABLE), before any connection', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await createE2e({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true' } });
  });
  afterAll(() => e?.close());

  it.each([
    ['a loopback IP literal', '127.0.0.1', 'loopback'],
    ['a host name that resolves to loopback (checked by the socket’s lookup, on the address it connects to)', 'localhost', 'loopback'],
  ])('%s', async (_case, host, range) => {
    const { path, answered, record } = await presentWithStatusAt(e, host);
    expect(answered.status).toBe(400);
    expect(record).toMatchObject({ state: 'Error', error: { code: 'STATUS_LIST_UNAVAILABLE', message: expect.stringContaining(range) } });
    expect(hitsOf(path)).toEqual([]);
  });
});

describe('STATUS_LIST_INTERNAL_HOSTS lets a listed host be served inside the network', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await createE2e({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true', STATUS_LIST_INTERNAL_HOSTS: 'status.tessera.example,localhost' } });
  });
  afterAll(() => e?.close());

  it('a listed host verifies, the fetch keeps the name in Host, and a revoked entry is still seen', async () => {
    const valid = await presentWithStatusAt(e, 'localhost', 0);
    expect(valid.answered.status).toBe(200);
    expect(valid.result.body.data.presentations[0].status).toEqual({ uri: valid.uri, idx: 0, status: 'VALID' });
    expect(hitsOf(valid.path)).toEqual([{ path: valid.path, host: `localhost:${port}` }]);
    const revoked = await presentWithStatusAt(e, 'localhost', 1);
    expect(revoked.record.error.code).toBe('CREDENTIAL_REVOKED');
  });

  it('a host not listed is still refused, even on the same address', async () => {
    const { path, record } = await presentWithStatusAt(e, '127.0.0.1');
    expect(record.error.code).toBe('STATUS_LIST_UNAVAILABLE');
    expect(hitsOf(path)).toEqual([]);
  });
});

describe('http: is refused unless STATUS_LIST_ALLOW_HTTP=true', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await createE2e({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_INTERNAL_HOSTS: 'localhost' } });
  });
  afterAll(() => e?.close());

  it('an internal host over http is STATUS_LIST_UNAVAILABLE, nothing fetched', async () => {
    const { path, record } = await presentWithStatusAt(e, 'localhost');
    expect(record).toMatchObject({ state: 'Error', error: { code: 'STATUS_LIST_UNAVAILABLE', message: expect.stringContaining('http') } });
    expect(hitsOf(path)).toEqual([]);
  });
});

describe('STATUS_LIST_DENY_PRIVATE_ADDRESSES=false opens every address (what development does by default)', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await createE2e({ config: { ...PRODUCTION_DEFAULTS, STATUS_LIST_ALLOW_HTTP: 'true', STATUS_LIST_DENY_PRIVATE_ADDRESSES: 'false' } });
  });
  afterAll(() => e?.close());

  it('a loopback status list verifies', async () => {
    const { path, answered } = await presentWithStatusAt(e, '127.0.0.1');
    expect(answered.status).toBe(200);
    expect(hitsOf(path)).toHaveLength(1);
  });
});
