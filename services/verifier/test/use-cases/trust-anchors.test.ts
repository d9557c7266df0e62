import { describe, expect } from 'vitest';
import { pageWindow } from '@tessera/service-kit';
import { createTrustAnchor } from '../../src/use-cases/create-trust-anchor.js';
import { deleteTrustAnchor } from '../../src/use-cases/delete-trust-anchor.js';
import { listTrustAnchors } from '../../src/use-cases/list-trust-anchors.js';
import { createIssuer } from '../support/issuers.js';
import { didJwk, generateEs256 } from '../verification/support/sd-jwt.js';
import { useCaseTest as test } from '../support/use-cases.js';

// Trust anchors of an organisation (VERIFIER.md, Trust anchors): CA certificates and
// DIDs, optionally limited to credential types, listed and removed.
const ORG = 'org-anchor-cases';
const firstPage = pageWindow({ pageNumber: 1, pageSize: 10 });

describe('trust anchor use cases', () => {
  test('a CA certificate and a DID are trusted, listed newest first, and removed', async ({ world }) => {
    const { deps } = world;
    const issuer = await createIssuer('Anchor Cases Issuer');
    const certificate = await createTrustAnchor(deps, {
      orgId: ORG,
      body: { certificatePem: issuer.ca.pem, label: 'PID issuer', credentialTypes: ['https://example.eu/pid'] },
    });
    expect(certificate).toMatchObject({
      orgId: ORG,
      kind: 'certificate',
      label: 'PID issuer',
      subject: expect.stringContaining('Anchor Cases Issuer CA'),
      credentialTypes: ['https://example.eu/pid'],
    });
    deps.clock.offsetMs = 1000;
    const did = didJwk((await generateEs256()).publicJwk);
    const didAnchor = await createTrustAnchor(deps, { orgId: ORG, body: { did } });
    deps.clock.offsetMs = 0;
    expect(didAnchor).toMatchObject({ kind: 'did', subject: did, credentialTypes: null, certificatePem: null });

    const listed = await listTrustAnchors(deps, { orgId: ORG, page: firstPage });
    expect(listed.total).toBe(2);
    expect(listed.rows.map((row) => row.id)).toEqual([didAnchor.id, certificate.id]);

    expect(await deleteTrustAnchor(deps, { orgId: ORG, id: certificate.id })).toMatchObject({ id: certificate.id });
    expect((await listTrustAnchors(deps, { orgId: ORG, page: firstPage })).rows.map((row) => row.id)).toEqual([
      didAnchor.id,
    ]);
    await expect(deleteTrustAnchor(deps, { orgId: ORG, id: certificate.id })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  test('the same anchor twice is a conflict; a leaf certificate is no anchor', async ({ world }) => {
    const issuer = await createIssuer('Twice Trusted Issuer');
    await createTrustAnchor(world.deps, { orgId: ORG, body: { certificatePem: issuer.ca.pem } });
    await expect(
      createTrustAnchor(world.deps, { orgId: ORG, body: { certificatePem: issuer.ca.pem } }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'TRUST_ANCHOR_EXISTS' });
    await expect(
      createTrustAnchor(world.deps, { orgId: ORG, body: { certificatePem: issuer.leaf.pem } }),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ path: '/certificatePem' }] });
  });

  test("another organisation's anchor cannot be removed, and is not listed", async ({ world }) => {
    const issuer = await createIssuer('Kept Apart Issuer');
    const anchor = await createTrustAnchor(world.deps, { orgId: ORG, body: { certificatePem: issuer.ca.pem } });
    await expect(deleteTrustAnchor(world.deps, { orgId: 'org-someone-else', id: anchor.id })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await listTrustAnchors(world.deps, { orgId: 'org-someone-else', page: firstPage })).total).toBe(0);
  });
});
