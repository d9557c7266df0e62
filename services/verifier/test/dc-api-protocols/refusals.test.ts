import { describe, expect } from 'vitest';
import type { CreatedPresentation, DcApiProtocol } from '@tessera/contracts';
import { DeviceResponse } from '@owf/mdoc';
import { expectSessionUnchanged } from '../support/answers.js';
import {
  holderTranscript,
  parseAnnexCRequest,
  presentAnnexCDocument,
  sealAnnexCResponse,
  tamperCipherText,
} from '../support/annex-c-holder.js';
import { answerDcApi, requestOf } from '../support/dc-api-wallet.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { issueMdl, MDL_DOCTYPE, newHolder } from '../support/issuers.js';
import { ORG, OTHER_ORG, oid4vpPath } from '../support/management.js';
import { issueMdoc } from '../verification/support/mdoc.js';
import { x509 } from '../verification/support/pki.js';

// The negative cases of issue 24 (item 4) over real HTTP, each with the independent
// holder: refusals leave the session unchanged (and the real answer still verifies
// afterwards); answers that open but do not verify end the session with their code.
const ORIGIN = 'https://rp.tessera.test';
const ATTACKER = 'https://attacker.tessera.test';
const DAY = 86_400_000;

const test = e2eTest().extend(
  'annexCSession',
  { scope: 'file' },
  ({ e2e }) =>
    (responseMode = 'dc_api', protocols: DcApiProtocol[] = ['org-iso-mdoc', 'openid4vp-v1-signed']) =>
      e2e.createSession({ dcql: mdocQuery(), responseMode, expectedOrigins: [ORIGIN], dcApiProtocols: protocols }),
);

const annexCData = (session: CreatedPresentation) =>
  requestOf(session, 'org-iso-mdoc').data as { deviceRequest: string; encryptionInfo: string };

/** A DeviceResponse holding `document`, sealed to the request as a wallet would, forwarded as an org-iso-mdoc answer. */
async function forwardSealed(
  e: E2e,
  session: CreatedPresentation,
  parsed: Awaited<ReturnType<typeof parseAnnexCRequest>>,
  document: Awaited<ReturnType<typeof presentAnnexCDocument>>,
) {
  const response = await sealAnnexCResponse({
    plaintext: DeviceResponse.createSimple({ documents: [document] }).encode(),
    recipientPublicKey: parsed.recipientPublicKey,
    transcript: parsed.transcript,
  });
  return e.verifyDcApi({
    verificationSessionId: session.id,
    authorizationResponse: { response },
    origin: ORIGIN,
    protocol: 'org-iso-mdoc',
  });
}

/** The platform CA as the wallet's reader trust anchor. */
const readerAnchors = (caPem: string) => [new Uint8Array(new x509.X509Certificate(caPem).rawData)];

describe('protocols the session did not offer', () => {
  test('a protocol not offered → 400 DC_API_PROTOCOL_MISMATCH, unchanged; the real answer verifies after', async ({
    e2e: e,
    sessionEvents,
  }) => {
    const session = await e.createSession({ dcql: mdocQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const authorizationResponse = await answerDcApi(e, requestOf(session, 'openid4vp-v1-signed'), {
      origin: ORIGIN,
      format: 'mdoc',
    });
    for (const protocol of ['org-iso-mdoc', 'openid4vp-v1-unsigned', 'openid4vp-v1-multisigned']) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse,
        origin: ORIGIN,
        protocol,
      });
      expect(answered.status, answered.raw).toBe(400);
      expect(answered.body).toMatchObject({
        code: 'DC_API_PROTOCOL_MISMATCH',
        details: [{ path: '/protocol', message: expect.any(String) }],
      });
      expect(answered.body.message).toContain('openid4vp-v1-signed');
    }
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
    const real = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse,
      origin: ORIGIN,
      protocol: 'openid4vp-v1-signed',
    });
    expect(real.body.data.state).toBe('ResponseVerified');
  });

  test('an unknown protocol name → 400 VALIDATION_FAILED naming /protocol', async ({ e2e: e, annexCSession }) => {
    const session = await annexCSession();
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { response: 'AA' },
      origin: ORIGIN,
      protocol: 'org-iso-mdoc-v2',
    });
    expect(answered.status).toBe(400);
    expect(answered.body.code).toBe('VALIDATION_FAILED');
    expect(answered.body.details[0].path).toBe('/protocol');
  });

  test('the call needs a token, a role in the organisation, and the session to be the organisation’s', async ({
    e2e: e,
    harness,
    annexCSession,
  }) => {
    const session = await annexCSession();
    const body = { verificationSessionId: session.id, authorizationResponse: { response: 'AA' }, origin: ORIGIN };
    const url = `${oid4vpPath()}/verify-authorization-response`;
    expect((await harness.call('POST', url, { body: { ...body, protocol: 'org-iso-mdoc' } })).status).toBe(401);
    expect((await harness.call('POST', url, { body, headers: await harness.auth(OTHER_ORG, ['owner']) })).status).toBe(
      403,
    );
    expect((await harness.call('POST', url, { body, headers: await harness.auth(ORG, ['member']) })).status).toBe(403);
    const elsewhere = await harness.call('POST', `${oid4vpPath(OTHER_ORG)}/verify-authorization-response`, {
      body,
      headers: await harness.auth(OTHER_ORG, ['owner']),
    });
    expect(elsewhere.status).toBe(404);
    expect((await e.readSession(session.id)).state).toBe('RequestCreated');
  });
});

describe('org-iso-mdoc answers that do not open (400 DECRYPTION_FAILED, session unchanged)', () => {
  test('bound to another origin in the transcript (an answer relayed through another page)', async ({
    e2e: e,
    sessionEvents,
    annexCSession,
  }) => {
    const session = await annexCSession();
    const relayed = await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
      transcriptOrigin: ATTACKER,
    });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: relayed,
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(answered.status).toBe(400);
    expect(answered.body.code).toBe('DECRYPTION_FAILED');
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
    // The same answer reported from the attacker's origin is not even admitted (one expected origin).
    const reported = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: relayed,
      origin: ATTACKER,
      protocol: 'org-iso-mdoc',
    });
    expect(reported.body.code).toBe('ORIGIN_NOT_ALLOWED');
    const genuine = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
        origin: ORIGIN,
        format: 'mdoc',
      }),
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(genuine.body.data.state).toBe('ResponseVerified');
  });

  test('encrypted to another session’s EncryptionInfo', async ({ e2e: e, sessionEvents, annexCSession }) => {
    const session = await annexCSession();
    const other = await annexCSession();
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: await answerDcApi(e, requestOf(other, 'org-iso-mdoc'), { origin: ORIGIN, format: 'mdoc' }),
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(answered.status).toBe(400);
    expect(answered.body.code).toBe('DECRYPTION_FAILED');
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
    await expectSessionUnchanged(e, sessionEvents, other, 'RequestCreated');
  });

  test('a tampered ciphertext, and envelopes that are not EncryptedResponses', async ({
    e2e: e,
    sessionEvents,
    annexCSession,
  }) => {
    const session = await annexCSession('dc_api.jwt');
    const { response } = (await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
    })) as { response: string };
    for (const altered of [
      tamperCipherText(response),
      'not-base64url!',
      'AAAA',
      Buffer.from('["dcapi", 1]').toString('base64url'),
    ]) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse: { response: altered },
        origin: ORIGIN,
        protocol: 'org-iso-mdoc',
      });
      expect(answered.status, altered).toBe(400);
      expect(answered.body.code).toBe('DECRYPTION_FAILED');
    }
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
  });

  test('answers that are not { response } or { error } → 400 VALIDATION_FAILED', async ({
    e2e: e,
    sessionEvents,
    annexCSession,
  }) => {
    const session = await annexCSession();
    for (const authorizationResponse of [
      {},
      { response: 42 },
      { response: '' },
      { vp_token: { mdl: ['x'] } },
      { response: 'AA', error: 'x' },
    ]) {
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse,
        origin: ORIGIN,
        protocol: 'org-iso-mdoc',
      });
      expect(answered.status, JSON.stringify(authorizationResponse)).toBe(400);
      expect(answered.body.code).toBe('VALIDATION_FAILED');
      expect(answered.body.details[0].path).toBe('/authorizationResponse');
    }
    await expectSessionUnchanged(e, sessionEvents, session, 'RequestCreated');
  });
});

describe('a wallet checking the request refuses a ReaderAuth over another transcript', () => {
  test('the request shown by a page at another origin, or with another session’s EncryptionInfo', async ({
    e2e: e,
    annexCSession,
  }) => {
    const session = await annexCSession();
    const other = await annexCSession();
    const anchors = readerAnchors(e.wallet.caPem);
    await expect(
      parseAnnexCRequest(annexCData(session), { origin: ORIGIN, readerAnchors: anchors }),
    ).resolves.toBeDefined();
    await expect(parseAnnexCRequest(annexCData(session), { origin: ATTACKER, readerAnchors: anchors })).rejects.toThrow(
      /ReaderAuth does not verify/,
    );
    const spliced = {
      deviceRequest: annexCData(session).deviceRequest,
      encryptionInfo: annexCData(other).encryptionInfo,
    };
    await expect(parseAnnexCRequest(spliced, { origin: ORIGIN, readerAnchors: anchors })).rejects.toThrow(
      /ReaderAuth does not verify/,
    );
  });
});

describe('org-iso-mdoc answers that open but do not verify (200, state Error)', () => {
  test('a device signature over another transcript than the one the envelope is bound to: DEVICE_SIGNATURE_INVALID', async ({
    e2e: e,
    annexCSession,
  }) => {
    const session = await annexCSession();
    const parsed = await parseAnnexCRequest(annexCData(session), {
      origin: ORIGIN,
      readerAnchors: readerAnchors(e.wallet.caPem),
    });
    const holder = await newHolder();
    const document = await presentAnnexCDocument(
      { issuerSigned: await issueMdl(e.issuer, holder), devicePrivateJwk: holder.privateJwk },
      MDL_DOCTYPE,
      parsed.docRequests[0]!.nameSpaces,
      holderTranscript({ encryptionInfo: annexCData(session).encryptionInfo, origin: ATTACKER }),
    );
    const answered = await forwardSealed(e, session, parsed, document);
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'DEVICE_SIGNATURE_INVALID' } });
  });

  test('a document the request did not ask for: INVALID_VP_TOKEN', async ({ e2e: e, annexCSession }) => {
    const session = await annexCSession();
    const parsed = await parseAnnexCRequest(annexCData(session), {
      origin: ORIGIN,
      readerAnchors: readerAnchors(e.wallet.caPem),
    });
    const holder = await newHolder();
    const photoId = await issueMdoc({
      docType: 'org.iso.23220.photoid.1',
      namespaces: { 'org.iso.23220.1': { family_name: 'Mustermann' } },
      signerPrivateJwk: e.issuer.leafPrivateJwk,
      certificates: [e.issuer.leaf.der],
      devicePublicJwk: holder.publicJwk,
      validFrom: new Date(Date.now() - DAY),
      validUntil: new Date(Date.now() + DAY),
    });
    const document = await presentAnnexCDocument(
      { issuerSigned: photoId, devicePrivateJwk: holder.privateJwk, reveal: { 'org.iso.23220.1': ['family_name'] } },
      'org.iso.23220.photoid.1',
      undefined,
      parsed.transcript,
    );
    const answered = await forwardSealed(e, session, parsed, document);
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'INVALID_VP_TOKEN' } });
  });

  test('a wallet error forwarded as the org-iso-mdoc answer: WALLET_ERROR', async ({ e2e: e, annexCSession }) => {
    const session = await annexCSession();
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { error: 'access_denied', error_description: 'The user declined.' },
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'WALLET_ERROR' } });
  });
});

describe('audiences of the OpenID4VP protocols (Appendix A.4)', () => {
  test('a multi-signed answer whose aud names no signer: AUDIENCE_MISMATCH', async ({ e2e: e }) => {
    for (const aud of ['x509_hash:not-one-of-the-signers', 'origin:https://attacker.tessera.test', ORIGIN]) {
      const session = await e.createSession({
        dcql: sdJwtQuery(),
        responseMode: 'dc_api',
        expectedOrigins: [ORIGIN],
        dcApiProtocols: ['openid4vp-v1-multisigned'],
      });
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse: await answerDcApi(e, requestOf(session, 'openid4vp-v1-multisigned'), {
          origin: ORIGIN,
          format: 'sd-jwt',
          aud,
        }),
        origin: ORIGIN,
        protocol: 'openid4vp-v1-multisigned',
      });
      expect(answered.body.data, aud).toMatchObject({ state: 'Error', error: { code: 'AUDIENCE_MISMATCH' } });
    }
  });

  test('unsigned and signed answers must name the origin, never the client id', async ({ e2e: e }) => {
    for (const protocol of ['openid4vp-v1-unsigned', 'openid4vp-v1-signed'] as const) {
      const session = await e.createSession({
        dcql: sdJwtQuery(),
        responseMode: 'dc_api',
        expectedOrigins: [ORIGIN],
        dcApiProtocols: [protocol, 'openid4vp-v1-multisigned'],
      });
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse: await answerDcApi(e, requestOf(session, protocol), {
          origin: ORIGIN,
          format: 'sd-jwt',
          aud: session.clientId,
        }),
        origin: ORIGIN,
        protocol,
      });
      expect(answered.body.data, protocol).toMatchObject({ state: 'Error', error: { code: 'AUDIENCE_MISMATCH' } });
    }
  });
});
