import { createHash } from 'node:crypto';
import { cborDecode, cborEncode, DeviceRequest } from '@owf/mdoc';
import { describe, expect, it } from 'vitest';
import { decodeEncryptionInfo, encodeEncryptionInfo } from '../../src/crypto/annex-c-encryption-key.js';
import { MDOC_READER_AUTH_EKU, REQUEST_SIGNER } from '../../src/crypto/certificate-purposes.js';
import { validateCertificateChain } from '../../src/crypto/certificate-chain.js';
import { readerAuthLeafNeedsRenewal } from '../../src/crypto/reader-auth-leaf-certificate.js';
import { buildAnnexCSessionTranscript } from '../../src/verification/annex-c-session-transcript.js';
import { holderTranscript, parseAnnexCRequest } from '../support/annex-c-holder.js';
import { createAnnexCSession, createReader, HOST, MDL_QUERY, ORIGIN, x509 } from './support.js';

// The OpenID4VP 1.0 Appendix B.2.6 encryption JWK (shared/spec/vectors.md), reused as a recipient key.
const SPEC_JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
  y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
};

describe('EncryptionInfo', () => {
  it('is ["dcapi", { nonce, recipientPublicKey }] with an EC2 P-256 COSE_Key of kty, crv, x, y only', () => {
    const nonce = new Uint8Array(32).map((_, index) => index);
    const encoded = encodeEncryptionInfo({ nonce, publicJwk: SPEC_JWK });
    const [type, parameters] = cborDecode(Buffer.from(encoded, 'base64url')) as [string, Map<string, unknown>];
    expect(type).toBe('dcapi');
    expect([...parameters.keys()]).toEqual(['nonce', 'recipientPublicKey']);
    expect(Buffer.from(parameters.get('nonce') as Uint8Array)).toEqual(Buffer.from(nonce));
    const key = parameters.get('recipientPublicKey') as Map<number, unknown>;
    expect([...key.keys()]).toEqual([1, -1, -2, -3]);
    expect([key.get(1), key.get(-1)]).toEqual([2, 1]);
    expect(Buffer.from(key.get(-2) as Uint8Array).toString('base64url')).toBe(SPEC_JWK.x);
    expect(decodeEncryptionInfo(encoded)).toEqual({ nonce, publicJwk: SPEC_JWK });
  });

  it('is fresh per session: another key and nonce each time', async () => {
    const reader = await createReader();
    const [a, b] = [await createAnnexCSession(reader), await createAnnexCSession(reader)];
    expect(a.data.encryptionInfo).not.toBe(b.data.encryptionInfo);
    expect(decodeEncryptionInfo(a.data.encryptionInfo).nonce).toHaveLength(32);
    expect(a.recipientPrivateJwk.d).toBeDefined();
    expect(decodeEncryptionInfo(a.data.encryptionInfo).publicJwk.x).toBe(a.recipientPrivateJwk.x);
  });
});

describe('Annex C SessionTranscript', () => {
  it('is [null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]], as the independent holder computes it', () => {
    const encryptionInfo = encodeEncryptionInfo({ nonce: new Uint8Array(16), publicJwk: SPEC_JWK });
    const transcript = buildAnnexCSessionTranscript({ encryptionInfo, origin: ORIGIN });
    const hash = createHash('sha256')
      .update(cborEncode([encryptionInfo, ORIGIN]))
      .digest();
    expect(Buffer.from(transcript).toString('hex')).toBe(
      `83f6f682656463617069 5820${hash.toString('hex')}`.replace(' ', ''),
    );
    expect(Buffer.from(holderTranscript({ encryptionInfo, origin: ORIGIN }).encode())).toEqual(Buffer.from(transcript));
  });

  it('differs with the origin and with the EncryptionInfo string', () => {
    const encryptionInfo = encodeEncryptionInfo({ nonce: new Uint8Array(16), publicJwk: SPEC_JWK });
    const base = Buffer.from(buildAnnexCSessionTranscript({ encryptionInfo, origin: ORIGIN }));
    expect(
      base.equals(Buffer.from(buildAnnexCSessionTranscript({ encryptionInfo, origin: 'https://rp.example:8443' }))),
    ).toBe(false);
    const other = encodeEncryptionInfo({ nonce: new Uint8Array(16).fill(1), publicJwk: SPEC_JWK });
    expect(base.equals(Buffer.from(buildAnnexCSessionTranscript({ encryptionInfo: other, origin: ORIGIN })))).toBe(
      false,
    );
  });
});

describe('DeviceRequest with ReaderAuth', () => {
  it('is version 1.0 with one DocRequest per query, parsed and its ReaderAuth verified by an independent wallet', async () => {
    const reader = await createReader();
    const session = await createAnnexCSession(reader);
    const parsed = await parseAnnexCRequest(session.data, { origin: ORIGIN, readerAnchors: [reader.caDer] });
    expect(parsed.deviceRequest.version).toBe('1.0');
    expect(parsed.docRequests).toHaveLength(1);
    expect(parsed.docRequests[0]!.docType).toBe('org.iso.18013.5.1.mDL');
    expect([...parsed.docRequests[0]!.nameSpaces.get('org.iso.18013.5.1')!]).toEqual([
      ['family_name', true],
      ['given_name', false],
    ]);
    expect(Buffer.from(parsed.docRequests[0]!.readerChain[0]!)).toEqual(Buffer.from(reader.chain[0]!));
  });

  it('keeps the query order across several DocRequests', async () => {
    const reader = await createReader();
    const query = {
      credentials: [
        { ...MDL_QUERY.credentials[0], id: 'photo', meta: { doctype_value: 'org.iso.23220.photoid.1' } },
        MDL_QUERY.credentials[0],
      ],
    };
    const session = await createAnnexCSession(reader, query);
    const decoded = DeviceRequest.decode(Buffer.from(session.data.deviceRequest, 'base64url'));
    expect(decoded.docRequests.map((request) => request.itemsRequest.docType)).toEqual([
      'org.iso.23220.photoid.1',
      'org.iso.18013.5.1.mDL',
    ]);
    await expect(
      parseAnnexCRequest(session.data, { origin: ORIGIN, readerAnchors: [reader.caDer] }),
    ).resolves.toBeDefined();
  });

  it('is refused by the wallet at another origin: ReaderAuth covers the origin', async () => {
    const reader = await createReader();
    const session = await createAnnexCSession(reader);
    await expect(
      parseAnnexCRequest(session.data, { origin: 'https://attacker.example', readerAnchors: [reader.caDer] }),
    ).rejects.toThrow(/ReaderAuth does not verify/);
  });

  it('is refused with another session’s EncryptionInfo: ReaderAuth over another transcript', async () => {
    const reader = await createReader();
    const [a, b] = [await createAnnexCSession(reader), await createAnnexCSession(reader)];
    await expect(
      parseAnnexCRequest(
        { deviceRequest: a.data.deviceRequest, encryptionInfo: b.data.encryptionInfo },
        { origin: ORIGIN, readerAnchors: [reader.caDer] },
      ),
    ).rejects.toThrow(/ReaderAuth does not verify/);
  });

  it('is refused when the reader chain leads to no anchor the wallet trusts', async () => {
    const [reader, stranger] = [await createReader(), await createReader()];
    const session = await createAnnexCSession(reader);
    await expect(parseAnnexCRequest(session.data, { origin: ORIGIN, readerAnchors: [stranger.caDer] })).rejects.toThrow(
      /no anchor issued|is not signed by/,
    );
  });
});

describe('reader-authentication leaf', () => {
  it('follows the ISO/IEC 18013-5 Annex B reader profile and validates to the platform CA as a request signer', async () => {
    const now = new Date();
    const reader = await createReader(now);
    const leaf = new x509.X509Certificate(reader.chain[0]!);
    const keyUsage = leaf.getExtension(x509.KeyUsagesExtension)!;
    expect(keyUsage.critical).toBe(true);
    expect(keyUsage.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    const eku = leaf.getExtension(x509.ExtendedKeyUsageExtension)!;
    expect(eku.critical).toBe(true);
    expect(eku.usages.map(String)).toEqual([MDOC_READER_AUTH_EKU]);
    expect(leaf.getExtension(x509.SubjectKeyIdentifierExtension)).toBeTruthy();
    expect(leaf.getExtension(x509.AuthorityKeyIdentifierExtension)).toBeTruthy();
    expect(leaf.getExtension(x509.SubjectAlternativeNameExtension)!.names.items[0]!.value).toBe(HOST);
    const validated = await validateCertificateChain({
      chain: reader.chain,
      anchors: [reader.ca.certificate],
      now,
      purpose: REQUEST_SIGNER,
    });
    expect(validated.ok).toBe(true);
  });

  it('is renewed when it lacks the reader purpose, and not when it is current', async () => {
    const now = new Date();
    const reader = await createReader(now);
    const current = Buffer.from(reader.chain[0]!).toString('base64');
    expect(await readerAuthLeafNeedsRenewal({ chain: [current], ca: reader.ca, host: HOST, now })).toBe(false);
    const { issueLeafCertificate } = await import('../../src/crypto/leaf-certificate.js');
    const signingLeaf = await issueLeafCertificate({
      ca: reader.ca,
      publicJwk: { ...reader.privateJwk, d: undefined },
      keyType: 'P256',
      host: HOST,
      orgId: 'org-1',
      now,
    });
    expect(await readerAuthLeafNeedsRenewal({ chain: [signingLeaf], ca: reader.ca, host: HOST, now })).toBe(true);
  });
});
