import { createHash, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  parseTrustAnchor,
  resolveDid,
  SD_JWT_VC_ISSUER,
  validateCertificateChain,
} from '../../src/verification/index.js';
import { createPki, NOW, type Pki } from './support/fixtures.js';
import { createCa, createCertificate, createLeaf, x509 } from './support/pki.js';
import { didJwk, generateEs256 } from './support/sd-jwt.js';

let pki: Pki;
beforeAll(async () => {
  pki = await createPki();
});

const DAY = 86_400_000;
const anchors = () => [pki.root.certificate];

describe('validateCertificateChain', () => {
  it('validates leaf → intermediate → anchor, with or without the anchor in the chain', async () => {
    const without = await validateCertificateChain({
      chain: [pki.issuer.der, pki.intermediate.der],
      anchors: anchors(),
      now: NOW,
      purpose: SD_JWT_VC_ISSUER,
    });
    expect(without).toMatchObject({ ok: true });
    if (without.ok) expect(without.anchor.subject).toBe(pki.root.certificate.subject);
    expect(
      await validateCertificateChain({
        chain: [pki.issuer.der, pki.intermediate.der, pki.root.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: true });
  });

  it('refuses a non-CA intermediate', async () => {
    const notCa = await createCertificate({
      name: 'CN=Not A CA',
      issuer: pki.root,
      ca: false,
      keyUsages: x509.KeyUsageFlags.keyCertSign,
    });
    const leaf = await createLeaf('CN=Leaf', notCa);
    const result = await validateCertificateChain({
      chain: [leaf.der, notCa.der],
      anchors: anchors(),
      now: NOW,
      purpose: SD_JWT_VC_ISSUER,
    });
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('not a CA') });
  });

  it('refuses an expired intermediate, and any link outside its validity', async () => {
    const expired = await createCa('CN=Expired', pki.root, {
      notBefore: new Date(NOW.getTime() - 100 * DAY),
      notAfter: new Date(NOW.getTime() - DAY),
    });
    const leaf = await createLeaf('CN=Leaf', expired, { notBefore: new Date(NOW.getTime() - 50 * DAY) });
    expect(
      await validateCertificateChain({
        chain: [leaf.der, expired.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('expired') });
    expect(
      await validateCertificateChain({
        chain: [pki.issuer.der, pki.intermediate.der],
        anchors: anchors(),
        now: new Date(NOW.getTime() + 400 * DAY),
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false });
  });

  it('refuses a path longer than an intermediate allows', async () => {
    const second = await createCa('CN=Second Intermediate', pki.intermediate);
    const leaf = await createLeaf('CN=Deep Leaf', second);
    expect(
      await validateCertificateChain({
        chain: [leaf.der, second.der, pki.intermediate.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('path length') });
  });

  it('refuses a CA without keyCertSign and a leaf without digitalSignature or marked CA', async () => {
    const noCertSign = await createCa('CN=No CertSign', pki.root, { keyUsages: x509.KeyUsageFlags.digitalSignature });
    const leafUnder = await createLeaf('CN=Leaf', noCertSign);
    expect(
      await validateCertificateChain({
        chain: [leafUnder.der, noCertSign.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('keyCertSign') });
    const noSignature = await createLeaf('CN=No Signature', pki.intermediate, {
      keyUsages: x509.KeyUsageFlags.keyEncipherment,
    });
    expect(
      await validateCertificateChain({
        chain: [noSignature.der, pki.intermediate.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('digitalSignature') });
    expect(
      await validateCertificateChain({
        chain: [pki.intermediate.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('leaf') });
  });

  it('refuses a broken link, an unknown anchor, a lone anchor and garbage', async () => {
    const otherIntermediate = await createCa('CN=Test Issuer Intermediate,O=Tessera Tests,C=DE', pki.root);
    expect(
      await validateCertificateChain({
        chain: [pki.issuer.der, otherIntermediate.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('not signed') });
    expect(
      await validateCertificateChain({
        chain: [pki.issuer.der, pki.intermediate.der],
        anchors: [pki.iaca.certificate],
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await validateCertificateChain({
        chain: [pki.root.der],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await validateCertificateChain({
        chain: [new Uint8Array([1, 2, 3])],
        anchors: anchors(),
        now: NOW,
        purpose: SD_JWT_VC_ISSUER,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await validateCertificateChain({ chain: [], anchors: anchors(), now: NOW, purpose: SD_JWT_VC_ISSUER }),
    ).toMatchObject({ ok: false });
  });
});

describe('parseTrustAnchor', () => {
  it('describes a CA certificate with the SHA-256 of its DER', () => {
    const result = parseTrustAnchor({ certificatePem: pki.root.pem });
    expect(result).toEqual({
      ok: true,
      anchor: {
        kind: 'certificate',
        subject: pki.root.certificate.subject,
        notAfter: pki.root.certificate.notAfter.toISOString(),
        fingerprint: createHash('sha256').update(pki.root.der).digest('hex'),
      },
    });
  });

  it('refuses a leaf, two certificates and garbage', () => {
    expect(parseTrustAnchor({ certificatePem: pki.issuer.pem })).toMatchObject({
      ok: false,
      message: expect.stringContaining('CA'),
    });
    expect(parseTrustAnchor({ certificatePem: `${pki.root.pem}\n${pki.iaca.pem}` })).toMatchObject({ ok: false });
    expect(
      parseTrustAnchor({ certificatePem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }),
    ).toMatchObject({ ok: false });
  });

  it('describes a did:jwk and refuses other DID methods or DID URLs', async () => {
    const did = didJwk((await generateEs256()).publicJwk);
    expect(parseTrustAnchor({ did })).toEqual({
      ok: true,
      anchor: { kind: 'did', subject: did, fingerprint: createHash('sha256').update(did).digest('hex') },
    });
    expect(parseTrustAnchor({ did: 'did:web:issuer.example' })).toMatchObject({ ok: false });
    expect(parseTrustAnchor({ did: `${did}#0` })).toMatchObject({ ok: false });
  });
});

describe('resolveDid (offline)', () => {
  const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  function base58(bytes: Buffer): string {
    let value = BigInt(`0x${bytes.toString('hex')}`);
    let out = '';
    while (value > 0n) {
      out = BASE58[Number(value % 58n)] + out;
      value /= 58n;
    }
    for (const byte of bytes) {
      if (byte !== 0) break;
      out = `1${out}`;
    }
    return out;
  }

  it('resolves did:key for Ed25519 and P-256 (compressed point)', () => {
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const edDid = `did:key:z${base58(Buffer.concat([Buffer.from([0xed, 0x01]), Buffer.from(ed.x!, 'base64url')]))}`;
    expect(resolveDid({ did: `${edDid}#key-1` })).toEqual({
      ok: true,
      did: edDid,
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: ed.x },
    });

    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const jwk = p256.export({ format: 'jwk' });
    const y = Buffer.from(jwk.y!, 'base64url');
    const compressed = Buffer.concat([Buffer.from([0x02 + (y[y.length - 1]! & 1)]), Buffer.from(jwk.x!, 'base64url')]);
    const p256Did = `did:key:z${base58(Buffer.concat([Buffer.from([0x80, 0x24]), compressed]))}`;
    expect(resolveDid({ did: p256Did })).toEqual({
      ok: true,
      did: p256Did,
      publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
    });
  });

  it('refuses private keys in did:jwk, unknown key types and other methods', async () => {
    const keys = await generateEs256();
    const withPrivate = `did:jwk:${Buffer.from(JSON.stringify(keys.privateJwk)).toString('base64url')}`;
    expect(resolveDid({ did: withPrivate })).toMatchObject({ ok: false });
    expect(
      resolveDid({ did: `did:key:z${base58(Buffer.from([0xe7, 0x01, ...new Array(33).fill(2)]))}` }),
    ).toMatchObject({ ok: false });
    expect(resolveDid({ did: 'did:web:example.com' })).toMatchObject({ ok: false });
    expect(resolveDid({ did: 'did:jwk:!!' })).toMatchObject({ ok: false });
  });
});
