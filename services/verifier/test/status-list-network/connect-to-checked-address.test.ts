import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatusListFetch } from '../../src/network/create-status-list-fetch.js';

// The address checked is the address connected to. A resolver stands in for DNS
// (the names below exist nowhere else), answering differently on each call as a
// rebinding DNS server would. The fetch resolves once per connection, judges what
// that resolution returned, and the socket connects to exactly that address: a
// name that exists only in this resolver is reached at the address it answered,
// with the name kept in Host.
let server: Server;
let port: number;
const hosts: Array<string | undefined> = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    hosts.push(request.headers.host);
    response.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end('token');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A DNS stand-in answering `answers[n]` to the n-th query, and counting queries. */
function rebindingResolver(answers: string[]) {
  const queries: string[] = [];
  const resolve = ((
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    queries.push(hostname);
    const address = answers[Math.min(queries.length - 1, answers.length - 1)]!;
    const family = address.includes(':') ? 6 : 4;
    setImmediate(() => (options.all ? callback(null, [{ address, family }]) : callback(null, address, family)));
  }) as unknown as typeof dnsLookup;
  return { resolve, queries };
}

describe('createStatusListFetch', () => {
  it('an internal host is connected at the address its one resolution returned, Host keeping the name', async () => {
    const dns = rebindingResolver(['127.0.0.1', '203.0.113.1']);
    const fetch = createStatusListFetch(
      { denyPrivateAddresses: true, internalHosts: ['status.internal.test'] },
      { resolve: dns.resolve },
    );
    const response = await fetch(`http://status.internal.test:${port}/lists/1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('token');
    expect(hosts.at(-1)).toBe(`status.internal.test:${port}`);
    expect(dns.queries).toEqual(['status.internal.test']);
  });

  it('a name whose one resolution is loopback is refused, and nothing connects', async () => {
    const before = hosts.length;
    const dns = rebindingResolver(['127.0.0.1']);
    const fetch = createStatusListFetch({ denyPrivateAddresses: true, internalHosts: [] }, { resolve: dns.resolve });
    await expect(fetch(`http://rebind.attacker.test:${port}/lists/1`)).rejects.toThrow(/127\.0\.0\.1 \(loopback\)/);
    expect(dns.queries).toEqual(['rebind.attacker.test']);
    expect(hosts.length).toBe(before);
  });

  it('a name with any refused address among its answers is refused', async () => {
    const resolve = ((
      hostname: string,
      _options: unknown,
      callback: (error: Error | null, addresses: LookupAddress[]) => void,
    ) =>
      setImmediate(() =>
        callback(null, [
          { address: '203.0.113.7', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]),
      )) as unknown as typeof dnsLookup;
    const fetch = createStatusListFetch({ denyPrivateAddresses: true, internalHosts: [] }, { resolve });
    await expect(fetch(`http://mixed.attacker.test:${port}/`)).rejects.toThrow(
      /(203\.0\.113\.7 \(reserved\)|10\.0\.0\.7 \(private\))/,
    );
  });

  it('an IP literal is judged before connecting (sockets do not look literals up)', async () => {
    const before = hosts.length;
    const fetch = createStatusListFetch({ denyPrivateAddresses: true, internalHosts: [] });
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '169.254.169.254']) {
      await expect(fetch(`http://${host}:${port}/`), host).rejects.toThrow(/status list fetches may not reach/);
    }
    expect(hosts.length).toBe(before);
  });

  it('with the rule off every address is reached (development)', async () => {
    const response = await createStatusListFetch({ denyPrivateAddresses: false, internalHosts: [] })(
      `http://127.0.0.1:${port}/lists/2`,
    );
    expect(response.status).toBe(200);
  });
});
