import { describe, expect, test } from 'vitest';
import { validateCertificateChain } from '../../src/crypto/certificate-chain.js';
import { MDOC_ISSUER, SD_JWT_VC_ISSUER } from '../../src/crypto/certificate-purposes.js';
import { ValidatedChains } from '../../src/crypto/validated-chains.js';
import { createCa, createLeaf, NOW, x509 } from '../verification/support/pki.js';

// Reusing a validated chain may skip re-deriving the same result, never a check:
// the clock, the anchor set and the purpose are judged on every use.
const DAY = 86_400_000;

describe('validated chain cache', () => {
  test('a cached chain is found again for the same chain, anchors and purpose, and judged against the clock on every use', async () => {
    const root = await createCa('CN=Cache Root');
    const leaf = await createLeaf('CN=Cache Leaf', root, { notAfter: new Date(NOW.getTime() + 10 * DAY) });
    const cache = new ValidatedChains();
    const anchors = [root.certificate];
    const first = await validateCertificateChain({
      chain: [leaf.der],
      anchors,
      now: NOW,
      purpose: SD_JWT_VC_ISSUER,
      cache,
    });
    expect(first.ok).toBe(true);
    expect(cache.size).toBe(1);
    const again = await validateCertificateChain({
      chain: [leaf.der],
      anchors,
      now: new Date(NOW.getTime() + DAY),
      purpose: SD_JWT_VC_ISSUER,
      cache,
    });
    expect(again).toMatchObject({ ok: true });
    expect(again.ok && again.leaf).toBe(first.ok && first.leaf);

    const late = await validateCertificateChain({
      chain: [leaf.der],
      anchors,
      now: new Date(NOW.getTime() + 11 * DAY),
      purpose: SD_JWT_VC_ISSUER,
      cache,
    });
    expect(late).toMatchObject({ ok: false });
    expect(!late.ok && late.message).toContain('expired');
    const early = await validateCertificateChain({
      chain: [leaf.der],
      anchors,
      now: new Date(NOW.getTime() - 400 * DAY),
      purpose: SD_JWT_VC_ISSUER,
      cache,
    });
    expect(!early.ok && early.message).toContain('not valid before');
  });

  test('another anchor set (an anchor removed or replaced) validates in full and refuses', async () => {
    const root = await createCa('CN=Cache Root 2');
    const other = await createCa('CN=Cache Other Root');
    const leaf = await createLeaf('CN=Cache Leaf 2', root);
    const cache = new ValidatedChains();
    expect(
      (
        await validateCertificateChain({
          chain: [leaf.der],
          anchors: [other.certificate, root.certificate],
          now: NOW,
          purpose: SD_JWT_VC_ISSUER,
          cache,
        })
      ).ok,
    ).toBe(true);
    const without = await validateCertificateChain({
      chain: [leaf.der],
      anchors: [other.certificate],
      now: NOW,
      purpose: SD_JWT_VC_ISSUER,
      cache,
    });
    expect(without).toMatchObject({ ok: false });
    expect(!without.ok && without.message).toContain('does not lead to a trust anchor');
    // Same content in a new array (as read from the database again): found again.
    expect(
      (
        await validateCertificateChain({
          chain: [leaf.der],
          anchors: [other.certificate, root.certificate],
          now: NOW,
          purpose: SD_JWT_VC_ISSUER,
          cache,
        })
      ).ok,
    ).toBe(true);
    expect(cache.size).toBe(1);
  });

  test('another purpose judges the leaf extendedKeyUsage again', async () => {
    const root = await createCa('CN=Cache Root 3');
    const leaf = await createLeaf('CN=Cache Leaf 3', root, {
      extraExtensions: [new x509.ExtendedKeyUsageExtension(['2.5.29.37.0'])],
    });
    const cache = new ValidatedChains();
    expect(
      (
        await validateCertificateChain({
          chain: [leaf.der],
          anchors: [root.certificate],
          now: NOW,
          purpose: SD_JWT_VC_ISSUER,
          cache,
        })
      ).ok,
    ).toBe(true);
    const asMdoc = await validateCertificateChain({
      chain: [leaf.der],
      anchors: [root.certificate],
      now: NOW,
      purpose: MDOC_ISSUER,
      cache,
    });
    expect(asMdoc).toMatchObject({ ok: false });
    expect(!asMdoc.ok && asMdoc.message).toContain('mdoc document signer');
  });

  test('a refused chain is not remembered', async () => {
    const root = await createCa('CN=Cache Root 4');
    const stranger = await createCa('CN=Cache Stranger');
    const leaf = await createLeaf('CN=Cache Leaf 4', stranger);
    const cache = new ValidatedChains();
    expect(
      (
        await validateCertificateChain({
          chain: [leaf.der],
          anchors: [root.certificate],
          now: NOW,
          purpose: SD_JWT_VC_ISSUER,
          cache,
        })
      ).ok,
    ).toBe(false);
    expect(cache.size).toBe(0);
  });
});
