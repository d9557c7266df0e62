import { beforeAll, describe, expect, it } from 'vitest';
import { annexCVpToken } from '../../src/verification/annex-c-device-response.js';
import { openAnnexCResponse } from '../../src/verification/open-annex-c-response.js';
import { verifyPresentation } from '../../src/verification/verify-presentation.js';
import {
  answerAnnexCRequest,
  encodeEncryptedResponse,
  holderTranscript,
  parseAnnexCRequest,
  presentAnnexCDocument,
  sealAnnexCResponse,
  tamperCipherText,
  type AnnexCDocument,
} from '../support/annex-c-holder.js';
import { createPki, holderKeys, noStatusLists, NOW, type Pki } from '../verification/support/fixtures.js';
import { issueMdoc, MDL_DOCTYPE, MDL_NAMESPACE } from '../verification/support/mdoc.js';
import { DeviceResponse } from '@owf/mdoc';
import { createAnnexCSession, createReader, MDL_QUERY, ORIGIN, type Reader, type Session } from './support.js';

const DAY = 86_400_000;
let pki: Pki;
let reader: Reader;
let mdl: AnnexCDocument;

beforeAll(async () => {
  pki = await createPki();
  reader = await createReader();
  const holder = await holderKeys();
  mdl = {
    issuerSigned: await issueMdoc({
      namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann', given_name: 'Erika', birth_date: '1964-08-12' } },
      signerPrivateJwk: pki.documentSignerJwk,
      certificates: [pki.documentSigner.der],
      devicePublicJwk: holder.publicJwk,
      validFrom: new Date(NOW.getTime() - DAY),
      validUntil: new Date(NOW.getTime() + 365 * DAY),
    }),
    devicePrivateJwk: holder.privateJwk,
  };
});

const answer = (session: Session, options: { transcriptOrigin?: string } = {}) =>
  answerAnnexCRequest(session.data, {
    origin: ORIGIN,
    readerAnchors: [reader.caDer],
    documents: { [MDL_DOCTYPE]: mdl },
    ...options,
  });

const open = (session: Session, response: unknown, origin = ORIGIN) =>
  openAnnexCResponse({
    response,
    encryptionInfo: session.data.encryptionInfo,
    origin,
    recipientPrivateJwk: session.recipientPrivateJwk,
  });

/** What the wiring does with an opened answer: the engine, with the Annex C transcript. */
async function verifyOpened(session: Session, deviceResponse: Uint8Array, sessionTranscript: Uint8Array) {
  const vpToken = annexCVpToken({ deviceResponse, docRequests: session.docRequests });
  if (!vpToken.ok) throw new Error(vpToken.message);
  return verifyPresentation({
    vpToken: vpToken.vpToken,
    dcqlQuery: MDL_QUERY,
    clientId: 'unused-over-annex-c',
    nonce: 'unused-over-annex-c',
    flow: { kind: 'dc_api', origin: ORIGIN },
    mdocSessionTranscript: sessionTranscript,
    trust: { certificates: [pki.iaca.pem], dids: [] },
    statusLists: noStatusLists,
    now: NOW,
  });
}

describe('opening an EncryptedResponse (HPKE, Annex C)', () => {
  it('opens what an independent wallet sealed, giving back its DeviceResponse and the transcript', async () => {
    const session = await createAnnexCSession(reader);
    const { response, deviceResponse } = await answer(session);
    const opened = await open(session, response);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(Buffer.from(opened.deviceResponse)).toEqual(Buffer.from(deviceResponse));
    expect(Buffer.from(opened.sessionTranscript)).toEqual(
      Buffer.from(holderTranscript({ encryptionInfo: session.data.encryptionInfo, origin: ORIGIN }).encode()),
    );
  });

  it('does not open an answer bound to another origin (a relay through another page)', async () => {
    const session = await createAnnexCSession(reader);
    const { response } = await answer(session, { transcriptOrigin: 'https://attacker.example' });
    expect(await open(session, response)).toMatchObject({ ok: false });
    // Nor the genuine answer when the page reports another origin than the one it was made for.
    const genuine = await answer(session);
    expect(await open(session, genuine.response, 'https://attacker.example')).toMatchObject({ ok: false });
  });

  it('does not open another session’s answer (its EncryptionInfo and key)', async () => {
    const [a, b] = [await createAnnexCSession(reader), await createAnnexCSession(reader)];
    const { response } = await answer(b);
    expect(await open(a, response)).toMatchObject({ ok: false });
  });

  it('does not open a tampered ciphertext', async () => {
    const session = await createAnnexCSession(reader);
    const { response } = await answer(session);
    expect(await open(session, tamperCipherText(response))).toMatchObject({ ok: false });
  });

  it.each([
    ['not a string', 42],
    ['not base64url', 'a+b/c='],
    ['not CBOR', Buffer.from([0xff, 0xff]).toString('base64url')],
    ['another envelope', Buffer.from([0x82, 0x61, 0x78, 0xa0]).toString('base64url')],
    ['a short enc', encodeEncryptedResponse({ enc: new Uint8Array(33).fill(2), cipherText: new Uint8Array(32) })],
  ])('refuses a response that is %s', async (_, response) => {
    const session = await createAnnexCSession(reader);
    const opened = await open(session, response);
    expect(opened.ok).toBe(false);
  });
});

describe('an Annex C answer through the verification engine', () => {
  it('verifies: issuer trust, MSO, device signature over the Annex C transcript; claims minimised to the query', async () => {
    const session = await createAnnexCSession(reader);
    const { response } = await answer(session);
    const opened = await open(session, response);
    if (!opened.ok) throw new Error(opened.message);
    const result = await verifyOpened(session, opened.deviceResponse, opened.sessionTranscript);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.presentations).toHaveLength(1);
    expect(result.presentations[0]).toMatchObject({
      credentialQueryId: 'mdl',
      format: 'mso_mdoc',
      doctype: MDL_DOCTYPE,
      holderBinding: true,
      claims: { [MDL_NAMESPACE]: { family_name: 'Mustermann', given_name: 'Erika' } },
    });
  });

  it('refuses a device signature over another transcript (DEVICE_SIGNATURE_INVALID), even when the envelope opens', async () => {
    const session = await createAnnexCSession(reader);
    const parsed = await parseAnnexCRequest(session.data, { origin: ORIGIN, readerAnchors: [reader.caDer] });
    const wrong = holderTranscript({ encryptionInfo: session.data.encryptionInfo, origin: 'https://attacker.example' });
    const document = await presentAnnexCDocument(mdl, MDL_DOCTYPE, parsed.docRequests[0]!.nameSpaces, wrong);
    const response = await sealAnnexCResponse({
      plaintext: DeviceResponse.createSimple({ documents: [document] }).encode(),
      recipientPublicKey: parsed.recipientPublicKey,
      transcript: parsed.transcript,
    });
    const opened = await open(session, response);
    if (!opened.ok) throw new Error(opened.message);
    const result = await verifyOpened(session, opened.deviceResponse, opened.sessionTranscript);
    expect(result).toMatchObject({ ok: false, code: 'DEVICE_SIGNATURE_INVALID' });
  });

  it('refuses an issuer outside the trust store (ISSUER_NOT_TRUSTED)', async () => {
    const session = await createAnnexCSession(reader);
    const { response } = await answer(session);
    const opened = await open(session, response);
    if (!opened.ok) throw new Error(opened.message);
    const vpToken = annexCVpToken({ deviceResponse: opened.deviceResponse, docRequests: session.docRequests });
    if (!vpToken.ok) throw new Error(vpToken.message);
    const result = await verifyPresentation({
      vpToken: vpToken.vpToken,
      dcqlQuery: MDL_QUERY,
      clientId: 'unused',
      nonce: 'unused',
      flow: { kind: 'dc_api', origin: ORIGIN },
      mdocSessionTranscript: opened.sessionTranscript,
      trust: { certificates: [pki.root.pem], dids: [] },
      statusLists: noStatusLists,
      now: NOW,
    });
    expect(result).toMatchObject({ ok: false, code: 'ISSUER_NOT_TRUSTED' });
  });
});

describe('annexCVpToken', () => {
  it('matches documents to DocRequests by doctype in request order, one DeviceResponse each', async () => {
    const query = {
      credentials: [
        { ...MDL_QUERY.credentials[0], id: 'first' },
        { ...MDL_QUERY.credentials[0], id: 'second' },
      ],
    };
    const session = await createAnnexCSession(reader, query);
    const { deviceResponse } = await answer(session);
    const vpToken = annexCVpToken({ deviceResponse, docRequests: session.docRequests });
    expect(vpToken.ok && Object.keys(vpToken.vpToken)).toEqual(['first', 'second']);
    if (!vpToken.ok) return;
    const single = DeviceResponse.decode(Buffer.from(vpToken.vpToken.first![0]!, 'base64url'));
    expect(single.documents).toHaveLength(1);
  });

  it('leaves out a DocRequest the wallet did not answer, and refuses a document nobody asked for', async () => {
    const query = {
      credentials: [
        { ...MDL_QUERY.credentials[0], id: 'photo', meta: { doctype_value: 'org.iso.23220.photoid.1' } },
        MDL_QUERY.credentials[0],
      ],
    };
    const session = await createAnnexCSession(reader, query);
    const { deviceResponse } = await answer(session);
    const vpToken = annexCVpToken({ deviceResponse, docRequests: session.docRequests });
    expect(vpToken.ok && Object.keys(vpToken.vpToken)).toEqual(['mdl']);
    const photoOnly = annexCVpToken({ deviceResponse, docRequests: session.docRequests.slice(0, 1) });
    expect(photoOnly).toMatchObject({ ok: false });
  });

  it.each([
    ['not CBOR', new Uint8Array([0xff])],
    ['an error status', new Uint8Array(Buffer.from('a26776657273696f6e63312e306673746174757310', 'hex'))],
    ['no document', new Uint8Array(Buffer.from('a26776657273696f6e63312e306673746174757300', 'hex'))],
  ])('refuses a DeviceResponse that is %s', (_, deviceResponse) => {
    const session = { docRequests: [] };
    expect(annexCVpToken({ deviceResponse, docRequests: session.docRequests })).toMatchObject({ ok: false });
  });
});
