import { describe, expect } from 'vitest';
import { verifierTest as test } from '../support/fixtures.js';
import { createIssuer } from '../support/issuers.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import { didJwk, generateEs256 } from '../verification/support/sd-jwt.js';

// Ed25519 example of the did:key specification.
const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const base = (org = ORG) => `/v1/orgs/${org}/oid4vp/trust-anchors`;

describe('trust anchor routes', () => {
  test('adds a CA certificate (201 with subject, notAfter, fingerprint), refuses it twice (409), lists and deletes it', async ({
    api,
  }) => {
    const issuer = await createIssuer('Anchor Issuer');
    const created = await api('POST', base(), { certificatePem: issuer.ca.pem, label: 'Issuer A' });
    expect(created.status).toBe(201);
    const anchor = created.body.data;
    expect(anchor).toEqual({
      id: expect.any(String),
      label: 'Issuer A',
      kind: 'certificate',
      subject: 'CN=Anchor Issuer CA, O=Tessera Tests',
      notAfter: issuer.ca.certificate.notAfter.toISOString(),
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
    });
    const duplicate = await api('POST', base(), { certificatePem: issuer.ca.pem });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('TRUST_ANCHOR_EXISTS');
    // Another organisation may trust the same CA.
    expect((await api('POST', base(OTHER_ORG), { certificatePem: issuer.ca.pem }, { org: OTHER_ORG })).status).toBe(
      201,
    );

    const listed = await api('GET', `${base()}?pageSize=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ page: 1, pageSize: 100 });
    expect(listed.body.data.data.map((a: { id: string }) => a.id)).toContain(anchor.id);

    expect((await api('DELETE', `${base(OTHER_ORG)}/${anchor.id}`, undefined, { org: OTHER_ORG })).status).toBe(404);
    const deleted = await api('DELETE', `${base()}/${anchor.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(anchor.id);
    expect((await api('DELETE', `${base()}/${anchor.id}`)).status).toBe(404);
    expect((await api('DELETE', `${base()}/not-a-uuid`)).status).toBe(404);
  });

  test('accepts did:key and did:jwk; the fingerprint is the SHA-256 of the DID', async ({ api }) => {
    const jwk = didJwk((await generateEs256()).publicJwk);
    for (const did of [DID_KEY, jwk]) {
      const created = await api('POST', base(), { did });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ kind: 'did', subject: did, label: null });
      expect(created.body.data.notAfter).toBeUndefined();
    }
    expect((await api('POST', base(), { did: DID_KEY })).body.code).toBe('TRUST_ANCHOR_EXISTS');
  });

  test('refuses a leaf certificate, bad PEM, two certificates, other DID methods, unresolvable DIDs and malformed bodies (400)', async ({
    api,
  }) => {
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
      const response = await api('POST', base(), payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('GET', `${base()}?pageSize=0`)).status).toBe(400);
  });
});
