// The reference page's backend teaches safe habits (issue 28, item 9): its browser
// cookie is Secure wherever the page is not plain localhost, and a failure is logged
// with the request's path only, never its query string (a same-device responseCode is
// a bearer secret for the result). Real HTTP to the backend; the verifier behind it is
// an address nothing listens on, so every verifier call fails the way an outage does.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSessions } from '../../src/web/browser-sessions.js';
import { handlePageRequests } from '../../src/web/page-server.js';
import { VerifierApi } from '../../src/web/verifier-api.js';
import type { DemoRelyingParty } from '../../src/relying-party.js';

const relyingParty: DemoRelyingParty = {
  orgId: 'org-habits',
  ownerEmail: 'owner@example.org',
  ownerToken: 'owner-token-not-used',
  verifierToken: 'verifier-token',
  ecosystemId: 'eco',
  intentId: 'intent',
  templateId: 'template',
  verifierId: 'desk',
};

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, setCookie: response.headers['set-cookie'] ?? [] }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

describe('the reference page backend', () => {
  const logged: string[] = [];
  const browsers = new BrowserSessions();
  let server: Server;
  let port: number;
  let unreachable: number;

  beforeAll(async () => {
    // A port that was free a moment ago: the verifier "is down".
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    unreachable = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    server = createServer(
      handlePageRequests(
        {
          verifier: new VerifierApi(`http://127.0.0.1:${unreachable}`, relyingParty),
          browsers,
          allowedOrigins: ['http://localhost:1'],
        },
        (line) => logged.push(line),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sets the browser cookie Secure for a page reached at any host but plain localhost', async () => {
    const remote = await get(port, '/api/demo-credential/status', { host: 'shop.example.org' });
    expect(remote.setCookie).toHaveLength(1);
    expect(remote.setCookie[0]).toMatch(/; Secure$/);
    expect(remote.setCookie[0]).toMatch(/HttpOnly/);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, '[::1]:3010']) {
      const local = await get(port, '/api/demo-credential/status', { host });
      expect(local.setCookie[0]).not.toMatch(/Secure/);
    }
  });

  it('logs a failed call with its path only: no responseCode, no query string', async () => {
    const browserId = 'b'.repeat(22);
    browsers.remember('0f8fad5b-d9cb-469f-a165-70867728950e', { browserId, sameDevice: true });
    const secret = 'RC-5ecret-value-never-logged';
    const answer = await get(port, `/api/same-device-result?responseCode=${secret}&extra=1`, {
      host: `localhost:${port}`,
      cookie: `tessera_demo_browser=${browserId}`,
    });
    expect(answer.status).toBe(502);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^demo web: GET \/api\/same-device-result failed: /);
    expect(logged[0]).not.toContain(secret);
    expect(logged[0]).not.toContain('?');
  });
});
