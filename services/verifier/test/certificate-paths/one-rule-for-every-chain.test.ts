import { webcrypto } from 'node:crypto';
import { describe, expect } from 'vitest';
import { validateCertificateChain } from '../../src/crypto/certificate-chain.js';
import { MDOC_ISSUER, SD_JWT_VC_ISSUER, type CertificatePurpose } from '../../src/crypto/certificate-purposes.js';
import {
  answerRedirect,
  expectFailedWith,
  expectVerified,
  issueCredential,
  presentAll,
} from '../support/crafted-answers.js';
import { createCustomIssuer, issueCertificate, x509, type CustomIssuerOptions } from '../support/custom-issuer.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { presentMdl } from '../support/holder.js';
import { issueMdl } from '../support/issuers.js';
import { oid4vpPath, type MemberCall } from '../support/management.js';

// The one chain validator (crypto/certificate-chain.ts) refuses unknown
// critical extensions, RSA keys under 2048 bits and SHA-1 signatures anywhere
// in a path, and a leaf whose extendedKeyUsage does not allow its use (mdoc
// document signer 1.0.18013.5.1.2; SD-JWT VC issuer: that or
// anyExtendedKeyUsage; request signer: mdoc reader authentication or
// anyExtendedKeyUsage). Each case with its compliant control, over HTTP:
// credentials from issuers, trust anchors, imported request-signing chains.
const base = oid4vpPath();
const UNKNOWN_CRITICAL = (critical: boolean) =>
  new x509.Extension('1.3.6.1.4.1.55555.9.9', critical, new Uint8Array([0x05, 0x00]));
const DOCUMENT_SIGNER = '1.0.18013.5.1.2';
const READER_AUTH = '1.0.18013.5.1.6';
const ANY = '2.5.29.37.0';
const eku = (...usages: string[]) => new x509.ExtendedKeyUsageExtension(usages);

const test = e2eTest();

/** An anchored custom issuer's SD-JWT VC, presented to a fresh redirect session. */
async function presentFrom(e: E2e, api: MemberCall, options: CustomIssuerOptions) {
  const issuer = await createCustomIssuer(options);
  expect((await api('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem })).status).toBe(201);
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(issuer, holder, { x5c: issuer.x5c }))(holder, facts),
  );
  return { issuer, session, answered };
}

/**
 * Why the one chain validator refuses the issuer's chain. The session only says the issuer
 * is not trusted (a fixed sentence, issue 28, item 3), so the reason is asked of the
 * validator itself, on the very chain the wallet presented.
 */
async function chainProblems(issuer: { ca: { pem: string }; x5c: string[] }, purpose: CertificatePurpose) {
  const judged = await validateCertificateChain({
    chain: issuer.x5c.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
    anchors: [new x509.X509Certificate(issuer.ca.pem)],
    now: new Date(),
    purpose,
  });
  expect(judged.ok).toBe(false);
  return judged.ok ? [] : judged.problems;
}

async function expectRefusedChain(e: E2e, api: MemberCall, options: CustomIssuerOptions, reason: string) {
  const { issuer, session, answered } = await presentFrom(e, api, options);
  await expectFailedWith(e, session, answered, 'ISSUER_NOT_TRUSTED');
  expect((await chainProblems(issuer, SD_JWT_VC_ISSUER)).join('; ')).toContain(reason);
}

async function expectAcceptedChain(e: E2e, api: MemberCall, options: CustomIssuerOptions) {
  const { session, answered } = await presentFrom(e, api, options);
  await expectVerified(e, session, answered);
}

describe('credential issuer chains', () => {
  test('an RSA-1024 intermediate is refused; control: RSA-2048', async ({ e2e: e, api }) => {
    await expectRefusedChain(e, api, { intermediateKey: { kind: 'RSA', modulusLength: 1024 } }, 'RSA key of 1024 bits');
    await expectAcceptedChain(e, api, { intermediateKey: { kind: 'RSA', modulusLength: 2048 } });
  });

  test('a leaf signed with sha1WithRSAEncryption is refused; control: sha256WithRSAEncryption from the same kind of CA', async ({
    e2e: e,
    api,
  }) => {
    // The fixture really signs with SHA-1 (the test would prove nothing otherwise).
    const probe = await createCustomIssuer({
      intermediateKey: { kind: 'RSA', modulusLength: 2048 },
      leafSignatureHash: 'SHA-1',
    });
    expect(probe.leaf.certificate.signatureAlgorithm).toMatchObject({
      name: 'RSASSA-PKCS1-v1_5',
      hash: { name: 'SHA-1' },
    });
    expect(
      await probe.leaf.certificate.verify({
        publicKey: new x509.X509Certificate(Buffer.from(probe.x5c[1]!, 'base64')).publicKey,
        signatureOnly: true,
      }),
    ).toBe(true);
    await expectRefusedChain(
      e,
      api,
      { intermediateKey: { kind: 'RSA', modulusLength: 2048 }, leafSignatureHash: 'SHA-1' },
      'SHA-1',
    );
    await expectAcceptedChain(e, api, {
      intermediateKey: { kind: 'RSA', modulusLength: 2048 },
      leafSignatureHash: 'SHA-256',
    });
  });

  test('an unknown critical extension is refused; control: the same extension not critical', async ({
    e2e: e,
    api,
  }) => {
    await expectRefusedChain(
      e,
      api,
      { leafExtensions: [UNKNOWN_CRITICAL(true)] },
      'unknown critical extension 1.3.6.1.4.1.55555.9.9',
    );
    await expectAcceptedChain(e, api, { leafExtensions: [UNKNOWN_CRITICAL(false)] });
  });

  test('SD-JWT VC: a leaf restricted to TLS server use is refused; controls: the document signer EKU, anyExtendedKeyUsage, no EKU', async ({
    e2e: e,
    api,
  }) => {
    await expectRefusedChain(e, api, { leafExtensions: [eku(x509.ExtendedKeyUsage.serverAuth)] }, 'SD-JWT VC issuer');
    await expectAcceptedChain(e, api, { leafExtensions: [eku(x509.ExtendedKeyUsage.serverAuth, DOCUMENT_SIGNER)] });
    await expectAcceptedChain(e, api, { leafExtensions: [eku(ANY)] });
    await expectAcceptedChain(e, api, {});
  });

  test('mdoc: a document signer without the document signer EKU (when it has one) is refused; control: with it', async ({
    e2e: e,
    api,
  }) => {
    const answer = async (leafEku: string[]) => {
      const issuer = await createCustomIssuer({ leafExtensions: [eku(...leafEku)] });
      expect((await api('POST', `${base}/trust-anchors`, { certificatePem: issuer.ca.pem })).status).toBe(201);
      const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'direct_post' });
      return {
        issuer,
        session,
        answered: await answerRedirect(e, session, 'mdl', async (holder, facts) =>
          presentMdl(await issueMdl(issuer, holder), holder, facts),
        ),
      };
    };
    const wrong = await answer([x509.ExtendedKeyUsage.serverAuth, ANY]);
    await expectFailedWith(e, wrong.session, wrong.answered, 'ISSUER_NOT_TRUSTED', 'mdl');
    expect((await chainProblems(wrong.issuer, MDOC_ISSUER)).join('; ')).toContain('mdoc document signer');
    const right = await answer([DOCUMENT_SIGNER]);
    await expectVerified(e, right.session, right.answered);
  });
});

describe('trust anchors', () => {
  test('an RSA-1024 CA or one with an unknown critical extension is not an anchor (400); controls: RSA-2048, a SHA-1 self-signed root (its self-signature is not relied on)', async ({
    api,
  }) => {
    const rsa1024 = await issueCertificate({
      subject: 'CN=Weak Root',
      ca: true,
      key: { kind: 'RSA', modulusLength: 1024 },
    });
    const critical = await issueCertificate({
      subject: 'CN=Odd Root',
      ca: true,
      key: { kind: 'P-256' },
      extensions: [UNKNOWN_CRITICAL(true)],
    });
    for (const [root, reason] of [
      [rsa1024, '1024 bits'],
      [critical, 'unknown critical extension'],
    ] as const) {
      const response = await api('POST', `${base}/trust-anchors`, { certificatePem: root.test.pem });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(reason) });
    }
    const rsa2048 = await issueCertificate({
      subject: 'CN=Strong Root',
      ca: true,
      key: { kind: 'RSA', modulusLength: 2048 },
    });
    const sha1Root = await issueCertificate({
      subject: 'CN=Old Root',
      ca: true,
      key: { kind: 'RSA', modulusLength: 2048 },
      hash: 'SHA-1',
    });
    for (const root of [rsa2048, sha1Root])
      expect((await api('POST', `${base}/trust-anchors`, { certificatePem: root.test.pem })).status).toBe(201);
  });
});

describe('imported request-signing chains', () => {
  async function importChain(
    api: MemberCall,
    options: {
      leafEku?: readonly string[];
      caKey?: { kind: 'RSA'; modulusLength: number };
      leafHash?: 'SHA-1';
      leafExtensions?: readonly x509.Extension[];
    },
  ) {
    const root = await issueCertificate({ subject: 'CN=Org Root', ca: true, key: options.caKey ?? { kind: 'P-256' } });
    const leaf = await issueCertificate({
      subject: 'CN=verifier.tessera.test',
      ca: false,
      key: { kind: 'P-256' },
      issuer: root,
      ...(options.leafHash ? { hash: options.leafHash } : {}),
      extensions: [
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'verifier.tessera.test' }]),
        ...(options.leafEku ? [eku(...options.leafEku)] : []),
        ...(options.leafExtensions ?? []),
      ],
    });
    const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leaf.keys.privateKey));
    const privateKeyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8
      .toString('base64')
      .replace(/(.{64})/g, '$1\n')
      .trimEnd()}\n-----END PRIVATE KEY-----\n`;
    return api('PUT', `${base}/certificates/P256`, {
      certificateChainPem: `${leaf.test.pem}\n${root.test.pem}`,
      privateKeyPem,
    });
  }

  test.for([
    ['a leaf restricted to TLS server use', { leafEku: [x509.ExtendedKeyUsage.serverAuth] }, 'request signer'],
    ['an RSA-1024 CA', { caKey: { kind: 'RSA' as const, modulusLength: 1024 } }, '1024 bits'],
    [
      'a leaf signed with SHA-1',
      { caKey: { kind: 'RSA' as const, modulusLength: 2048 }, leafHash: 'SHA-1' as const },
      'SHA-1',
    ],
    ['an unknown critical extension', { leafExtensions: [UNKNOWN_CRITICAL(true)] }, 'unknown critical extension'],
  ] as const)('refuses %s (400, the problem in details)', async ([_what, options, reason], { api }) => {
    const response = await importChain(api, options);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.details)).toContain(reason);
  });

  test('controls: mdoc reader authentication (with TLS server too), anyExtendedKeyUsage, no EKU, an RSA-2048 CA', async ({
    api,
  }) => {
    for (const options of [
      { leafEku: [x509.ExtendedKeyUsage.serverAuth, READER_AUTH] },
      { leafEku: [ANY] },
      {},
      { caKey: { kind: 'RSA' as const, modulusLength: 2048 } },
    ]) {
      const response = await importChain(api, options);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });
});
