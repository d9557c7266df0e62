import { describe, expect } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { x509 } from '../../src/crypto/x509.js';
import { fetchRequestObject } from '../../src/use-cases/fetch-request-object.js';
import { getSigningCertificate } from '../../src/use-cases/get-signing-certificate.js';
import { importCertificate } from '../../src/use-cases/import-certificate.js';
import { issue, makeRoot, pemOf, privateKeyPem } from '../support/pki.js';
import { useCaseTest as test, createPidSession, valueOf } from '../support/use-cases.js';
import { ORG } from '../support/management.js';

// Request-signing keys and chains (VERIFIER.md, Certificates): each organisation gets
// a key and a leaf under the platform CA on first use; it may import its own
// CA-issued chain and key instead, which then signs its requests.
const HOST = 'verifier.tessera.test';

describe('signing certificate use cases', () => {
  test('the first use creates the organisation’s key and a platform leaf naming the service’s host', async ({
    world,
  }) => {
    const chain = await getSigningCertificate(world.deps, { orgId: 'org-first-use', keyType: 'P256' });
    expect(chain).toMatchObject({ keyType: 'P256', source: 'platform' });
    expect(chain.chain).toHaveLength(1);
    const leaf = new x509.X509Certificate(Buffer.from(chain.chain[0]!, 'base64'));
    expect(leaf.issuer).toBe(world.deps.ca.certificate.subject);
    expect(leaf.getExtension(x509.SubjectAlternativeNameExtension)!.names.items.map((name) => name.value)).toContain(
      HOST,
    );
    // The same key on the next use.
    expect(await getSigningCertificate(world.deps, { orgId: 'org-first-use', keyType: 'P256' })).toEqual(chain);
  });

  test('an imported CA-issued chain replaces the platform leaf and signs the organisation’s next requests', async ({
    world,
  }) => {
    const root = await makeRoot();
    const intermediate = await issue({ issuer: root, name: 'Org Issuing CA', ca: true });
    const leaf = await issue({ issuer: intermediate, name: 'Org request signing', ca: false, dns: [HOST] });
    const imported = await importCertificate(world.deps, {
      orgId: ORG,
      keyType: 'P256',
      certificateChainPem: pemOf(leaf, intermediate, root),
      privateKeyPem: await privateKeyPem(leaf),
    });
    // The root is the trust anchor: kept out of x5c.
    expect(imported).toMatchObject({ keyType: 'P256', source: 'imported' });
    expect(imported.chain).toHaveLength(2);
    expect(await getSigningCertificate(world.deps, { orgId: ORG, keyType: 'P256' })).toEqual(imported);

    const session = await createPidSession(world);
    const fresh = valueOf(
      await fetchRequestObject(world.deps, {
        authorizationRequestId: session.authorizationRequestId,
        walletNonce: 'after-import',
      }),
    );
    expect(decodeProtectedHeader(fresh).x5c).toEqual(imported.chain);
    expect(decodeJwt(fresh)).toMatchObject({ wallet_nonce: 'after-import' });
  });

  test('a key that is not the leaf’s, or a leaf that signs itself, is refused and changes nothing', async ({
    world,
  }) => {
    const orgId = 'org-refused-import';
    const before = await getSigningCertificate(world.deps, { orgId, keyType: 'P256' });
    const root = await makeRoot();
    const intermediate = await issue({ issuer: root, name: 'Org Issuing CA', ca: true });
    const leaf = await issue({ issuer: intermediate, name: 'leaf', ca: false, dns: [HOST] });
    const other = await issue({ issuer: intermediate, name: 'other', ca: false });
    await expect(
      importCertificate(world.deps, {
        orgId,
        keyType: 'P256',
        certificateChainPem: pemOf(leaf, intermediate),
        privateKeyPem: await privateKeyPem(other),
      }),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ path: '/privateKeyPem' }] });
    await expect(
      importCertificate(world.deps, {
        orgId,
        keyType: 'P256',
        certificateChainPem: pemOf(root),
        privateKeyPem: await privateKeyPem(root),
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(await getSigningCertificate(world.deps, { orgId, keyType: 'P256' })).toEqual(before);
  });
});
