// An end-to-end setting: the verifier listening on 127.0.0.1 (real HTTP), an
// organisation with a verifier "desk" that trusts the test issuer's CA, and
// helpers to create sessions and read them back through the management API.
import { createHarness, PUBLIC_BASE_URL, type Harness, type HarnessOptions } from './harness.js';
import { httpFetch, type WalletContext } from './holder.js';
import { createIssuer, type TestIssuer } from './issuers.js';
import { ORG } from './dcql-queries.js';

export interface E2e {
  h: Harness;
  url: string;
  issuer: TestIssuer;
  wallet: WalletContext;
  /** Management call over HTTP with an org member's token. */
  call(method: string, path: string, body?: unknown, options?: { org?: string; roles?: string[]; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  createSession(body: Record<string, unknown>): Promise<any>;
  readSession(id: string): Promise<any>;
  readResult(id: string): Promise<{ status: number; body: any }>;
  verifyDcApi(body: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** A raw form POST to a response_uri (what a wallet, or an attacker, could send). */
  postForm(responseUri: string, fields: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function createE2e(options: HarnessOptions = {}): Promise<E2e> {
  const h = await createHarness(options);
  const url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  const issuer = await createIssuer('PID Issuer');
  const wallet: WalletContext = { caPem: h.ca.certificatePem, fetch: httpFetch(PUBLIC_BASE_URL, url) };
  const call: E2e['call'] = async (method, path, body, callOptions = {}) => {
    const org = callOptions.org ?? ORG;
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { ...(await h.auth(org, callOptions.roles)), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...callOptions.headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const base = `/v1/orgs/${ORG}/oid4vp`;
  await call('POST', `${base}/verifier`, { verifierId: 'desk' });
  const anchored = await call('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem, label: 'test issuer' });
  if (anchored.status !== 201) throw new Error(`trust anchor not added: ${JSON.stringify(anchored.body)}`);
  return {
    h,
    url,
    issuer,
    wallet,
    call,
    async createSession(body) {
      const created = await call('POST', `${base}/presentation?verifierId=desk`, body);
      if (created.status !== 201) throw new Error(`session not created: ${JSON.stringify(created.body)}`);
      return created.body.data;
    },
    async readSession(id) {
      return (await call('GET', `${base}/verifier-presentation?id=${id}`)).body.data;
    },
    readResult: (id) => call('GET', `${base}/verifier-presentation-response?verificationPresentationId=${encodeURIComponent(id)}`),
    verifyDcApi: (body) => call('POST', `${base}/verify-authorization-response`, body),
    async postForm(responseUri, fields) {
      const response = await wallet.fetch(responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => h.close(),
  };
}
