import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrustedIssuers, TrustedIssuersFileError } from '../../src/use-cases/load-trusted-issuers.js';
import { createE2e } from '../support/e2e.js';
import { ORG, OTHER_ORG, sdJwtQuery } from '../support/dcql-queries.js';
import { createHarness, AUDIENCE, ISSUER, PUBLIC_BASE_URL, type Harness } from '../support/harness.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { didJwk, generateEs256 } from '../verification/support/sd-jwt.js';

// Ed25519 example of the did:key specification.
const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/trust-anchors`;

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await createHarness();
  dir = mkdtempSync(join(tmpdir(), 'verifier-anchors-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(method: string, url: string, payload?: unknown, org = ORG) {
  return h.app.inject({ method: method as 'GET', url, headers: await h.auth(org), ...(payload !== undefined ? { payload: payload as object } : {}) });
}

describe('trust anchor routes', () => {
  it('adds a CA certificate (201 with subject, notAfter, fingerprint), refuses it twice (409), lists and deletes it', async () => {
    const issuer = await createIssuer('Anchor Issuer');
    const created = await send('POST', base(), { certificatePem: issuer.ca.pem, label: 'Issuer A' });
    expect(created.statusCode).toBe(201);
    const anchor = created.json().data;
    expect(anchor).toEqual({
      id: expect.any(String),
      label: 'Issuer A',
      kind: 'certificate',
      subject: 'CN=Anchor Issuer CA, O=Tessera Tests',
      notAfter: issuer.ca.certificate.notAfter.toISOString(),
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
    });
    const duplicate = await send('POST', base(), { certificatePem: issuer.ca.pem });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('TRUST_ANCHOR_EXISTS');
    // Another organisation may trust the same CA.
    expect((await send('POST', base(OTHER_ORG), { certificatePem: issuer.ca.pem }, OTHER_ORG)).statusCode).toBe(201);

    const listed = await send('GET', `${base()}?pageSize=100`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toMatchObject({ page: 1, pageSize: 100 });
    expect(listed.json().data.data.map((a: { id: string }) => a.id)).toContain(anchor.id);

    expect((await send('DELETE', `${base(OTHER_ORG)}/${anchor.id}`, undefined, OTHER_ORG)).statusCode).toBe(404);
    const deleted = await send('DELETE', `${base()}/${anchor.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.id).toBe(anchor.id);
    expect((await send('DELETE', `${base()}/${anchor.id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `${base()}/not-a-uuid`)).statusCode).toBe(404);
  });

  it('accepts did:key and did:jwk; the fingerprint is the SHA-256 of the DID', async () => {
    const jwk = didJwk((await generateEs256()).publicJwk);
    for (const did of [DID_KEY, jwk]) {
      const created = await send('POST', base(), { did });
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({ kind: 'did', subject: did, label: null });
      expect(created.json().data.notAfter).toBeUndefined();
    }
    expect((await send('POST', base(), { did: DID_KEY })).json().code).toBe('TRUST_ANCHOR_EXISTS');
  });

  it('refuses a leaf certificate, bad PEM, two certificates, other DID methods, unresolvable DIDs and malformed bodies (400)', async () => {
    const issuer = await createIssuer('Leafy');
    const cases: unknown[] = [
      { certificatePem: issuer.leaf.pem },
      { certificatePem: 'not a pem' },
      { certificatePem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      { certificatePem: `${issuer.ca.pem}\n${issuer.ca.pem}` },
      { did: 'did:web:issuer.example' },
      { did: 'did:key:zNotBase58!' },
      { did: 'did:jwk:bm90LWpzb24' },
      { did: `${DID_KEY}#frag` },
      { certificatePem: issuer.ca.pem, did: DID_KEY },
      { label: 'nothing else' },
      { certificatePem: issuer.ca.pem, label: '' },
      {},
      [],
    ];
    for (const payload of cases) {
      const response = await send('POST', base(), payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await send('GET', `${base()}?pageSize=0`)).statusCode).toBe(400);
  });
});

describe('TRUSTED_ISSUERS_FILE', () => {
  it('loads every CA certificate of the bundle; an unreadable, empty or non-CA bundle is an error naming the variable', async () => {
    const a = await createIssuer('Bundle A');
    const b = await createIssuer('Bundle B');
    const good = join(dir, 'good.pem');
    writeFileSync(good, `# platform issuers\n${a.ca.pem}\n${b.ca.pem}`);
    expect(loadTrustedIssuers(good)).toHaveLength(2);
    expect(loadTrustedIssuers(undefined)).toEqual([]);
    const leaf = join(dir, 'leaf.pem');
    writeFileSync(leaf, `${a.ca.pem}\n${a.leaf.pem}`);
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'nothing here');
    for (const path of [leaf, empty, join(dir, 'missing.pem')]) {
      expect(() => loadTrustedIssuers(path)).toThrow(TrustedIssuersFileError);
      expect(() => loadTrustedIssuers(path)).toThrow(/^TRUSTED_ISSUERS_FILE: /);
    }
  });

  it('the process exits 1 with one clear line when the bundle is bad', async () => {
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, 'not a certificate');
    const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
    const env = { PATH: process.env.PATH, NODE_ENV: 'production', PUBLIC_BASE_URL, KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URI: 'https://idp.example/jwks', TRUSTED_ISSUERS_FILE: bad, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (chunk) => (text += String(chunk)));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stderr: text }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`verifier: TRUSTED_ISSUERS_FILE: ${bad} holds no PEM certificate`);
  });

  it('an issuer in the platform bundle is trusted by every organisation without an anchor of its own', async () => {
    const platformIssuer = await createIssuer('Platform Issuer');
    const e = await createE2e({ trustedIssuers: [platformIssuer.ca.pem] });
    try {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
      const holder = await newHolder();
      const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
      const presentation = await presentPid(await issuePid(platformIssuer, holder), holder, requestFacts(resolved));
      expect((await submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] }))).status).toBe(200);
    } finally {
      await e.close();
    }
  });
});
