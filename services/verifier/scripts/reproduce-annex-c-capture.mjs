#!/usr/bin/env node
// Reproduces a public ISO/IEC 18013-7 Annex C (`org-iso-mdoc`) capture with the
// verifier's own code (its built `dist/`): the SessionTranscript, each ReaderAuth of
// the DeviceRequest over it, the HPKE open of the EncryptedResponse, and the
// DeviceResponse through the verification engine with the Annex C transcript.
//
//   node services/verifier/scripts/reproduce-annex-c-capture.mjs <capture-dir>
//
// Captures are not part of this repository (see the verifier README, "Public
// Annex C captures"). The directory holds, by name (every file but the first two optional):
//   encryption-info.b64u        the request's EncryptionInfo, base64url, exactly as sent
//   capture.json | metadata.json  { "origin": "https://…", "at"|"capturedAt"?: ISO time to verify at }
//   device-request.b64u         the DeviceRequest (its ReaderAuths are checked over our transcript)
//   response.b64u | dcapi-response.cbor.b64u   the EncryptedResponse the browser returned
//   recipient-private.jwk.json  the HPKE recipient key, when the capture publishes it
//   session-transcript.cbor     the capture's transcript bytes, compared with ours
//   device-response.cbor        the capture's opened DeviceResponse, compared with ours
//   anchor*.pem                 issuer trust anchors (IACA); without any, the document's own signer
//                               certificate is trusted exactly, as a trust list's leaf entry is
//                               (reproduction only), and the script says so
// Exit status: 0 when every check that the files allow passed, 1 otherwise.
import { createHash, X509Certificate, verify } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decoder, Tag } from 'cbor-x';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(fileURLToPath(dist))) {
  console.error('Build the verifier first: node scripts/pnpm.mjs exec turbo run build --filter=@tessera/verifier');
  process.exit(2);
}
const load = (path) => import(new URL(path, dist).href);
const { buildAnnexCSessionTranscript } = await load('verification/annex-c-session-transcript.js');
const { openAnnexCResponse } = await load('verification/open-annex-c-response.js');
const { annexCVpToken } = await load('verification/annex-c-device-response.js');
const { verifyPresentation } = await load('verification/verify-presentation.js');
const { encodeReaderAuthentication } = await load('crypto/reader-auth.js');
const { parseCertificateDer } = await load('crypto/parsed-certificates.js');
const { certificateFingerprint } = await load('crypto/certificate-fingerprint.js');
const { encodeTranscriptAsDataItem } = await load('verification/session-transcript.js');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: reproduce-annex-c-capture.mjs <capture-dir>');
  process.exit(2);
}
const file = (name) => join(dir, name);
const has = (name) => existsSync(file(name));
const text = (name) => readFileSync(file(name), 'utf8').trim();
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
let failed = false;
const report = (ok, what, detail = '') => {
  if (!ok) failed = true;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
};

const meta = has('capture.json')
  ? JSON.parse(text('capture.json'))
  : has('metadata.json')
    ? JSON.parse(text('metadata.json'))
    : {};
if (typeof meta.origin !== 'string') {
  console.error('capture.json (or metadata.json) must give the origin the browser reported');
  process.exit(2);
}
const encryptionInfo = text('encryption-info.b64u');
const at = new Date(meta.at ?? meta.capturedAt ?? Date.now());
console.log(`capture ${dir}\norigin ${meta.origin}, verified at ${at.toISOString()}`);

// 1. The SessionTranscript.
const transcript = buildAnnexCSessionTranscript({ encryptionInfo, origin: meta.origin });
console.log(`     SessionTranscript SHA-256 ${sha256(transcript)}`);
if (has('session-transcript.cbor'))
  report(
    Buffer.from(transcript).equals(readFileSync(file('session-transcript.cbor'))),
    'transcript equals the capture’s',
  );

// 2. Each ReaderAuth over it, with the ItemsRequest bytes as sent.
const COSE_HASH = { [-7]: 'sha256', [-9]: 'sha256', [-35]: 'sha384', [-36]: 'sha512' };
let docRequests = [];
if (has('device-request.b64u')) {
  const deviceRequest = decoder.decode(Buffer.from(text('device-request.b64u'), 'base64url'));
  console.log(`     DeviceRequest version ${deviceRequest.get('version')}`);
  for (const [index, docRequest] of deviceRequest.get('docRequests').entries()) {
    const tagged = docRequest.get('itemsRequest');
    const itemsBytes = tagged instanceof Tag ? tagged.value : tagged;
    const items = decoder.decode(itemsBytes);
    docRequests.push({
      credentialQueryId: `doc${index}`,
      docType: items.get('docType'),
      nameSpaces: new Map(
        [...items.get('nameSpaces')].map(([namespace, elements]) => [namespace, new Map([...elements])]),
      ),
    });
    const readerAuth = docRequest.get('readerAuth');
    if (!readerAuth) {
      console.log(`     DocRequest ${index} (${items.get('docType')}): no ReaderAuth`);
      continue;
    }
    const [protectedHeader, unprotected, , signature] = readerAuth;
    const alg = decoder.decode(protectedHeader).get(1);
    const x5chain = unprotected.get(33);
    const leaf = new X509Certificate(Buffer.from(Array.isArray(x5chain) ? x5chain[0] : x5chain));
    const toBeSigned = new (await import('cbor-x')).Encoder({ tagUint8Array: false, useRecords: false }).encode([
      'Signature1',
      protectedHeader,
      Buffer.alloc(0),
      Buffer.from(encodeReaderAuthentication({ sessionTranscript: transcript, itemsRequest: itemsBytes })),
    ]);
    const valid = verify(COSE_HASH[alg], toBeSigned, { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    report(
      valid,
      `ReaderAuth ${index} (${items.get('docType')}, alg ${alg}) verifies over our transcript`,
      leaf.subject.replace(/\n/g, ', '),
    );
  }
}

// 3. The HPKE open, and 4. the DeviceResponse through the engine.
const responseFile = ['response.b64u', 'dcapi-response.cbor.b64u'].find(has);
if (responseFile && has('recipient-private.jwk.json')) {
  const opened = await openAnnexCResponse({
    response: text(responseFile),
    encryptionInfo,
    origin: meta.origin,
    recipientPrivateJwk: JSON.parse(text('recipient-private.jwk.json')),
  });
  report(
    opened.ok,
    'EncryptedResponse opens (HPKE, @hpke/core)',
    opened.ok ? `DeviceResponse SHA-256 ${sha256(opened.deviceResponse)}` : opened.message,
  );
  if (opened.ok) {
    if (has('device-response.cbor'))
      report(
        Buffer.from(opened.deviceResponse).equals(readFileSync(file('device-response.cbor'))),
        'DeviceResponse equals the capture’s',
      );
    if (docRequests.length === 0) {
      const documents = decoder.decode(opened.deviceResponse).get('documents') ?? [];
      docRequests = documents.map((document, index) => ({
        credentialQueryId: `doc${index}`,
        docType: document.get('docType'),
        nameSpaces: new Map(),
      }));
    }
    const vpToken = annexCVpToken({ deviceResponse: opened.deviceResponse, docRequests });
    report(vpToken.ok, 'DeviceResponse answers the DeviceRequest', vpToken.ok ? '' : vpToken.message);
    if (vpToken.ok) {
      const anchors = readdirSync(dir)
        .filter((name) => /^anchor.*\.pem$/.test(name))
        .map((name) => text(name));
      let trust = { certificates: anchors, dids: [] };
      if (anchors.length === 0) {
        // No IACA published: the document signer itself is trusted exactly (a pinned leaf, whose own rules still apply).
        const first = decoder.decode(Buffer.from(vpToken.vpToken[docRequests[0].credentialQueryId][0], 'base64url'));
        const x5chain = first.get('documents')[0].get('issuerSigned').get('issuerAuth')[1].get(33);
        const signer = parseCertificateDer(
          Buffer.from(Array.isArray(x5chain) ? x5chain[0] : x5chain).toString('base64'),
        );
        trust = {
          certificates: [],
          dids: new Set(),
          credentialTypes: { certificates: new Map(), dids: new Map() },
          pinnedLeaves: new Map([[certificateFingerprint(signer), signer]]),
        };
        console.log(`     no anchor*.pem: trusting the document signer ${signer.subject} exactly (reproduction only)`);
      }
      const dcqlQuery = {
        credentials: docRequests.map((request) => ({
          id: request.credentialQueryId,
          format: 'mso_mdoc',
          meta: { doctype_value: request.docType },
          ...(request.nameSpaces.size > 0
            ? {
                claims: [...request.nameSpaces].flatMap(([namespace, elements]) =>
                  [...elements.keys()].map((element) => ({ path: [namespace, element] })),
                ),
              }
            : {}),
        })),
        credential_sets: [{ options: [docRequests.map((request) => request.credentialQueryId)], required: true }],
      };
      const result = await verifyPresentation({
        vpToken: vpToken.vpToken,
        dcqlQuery,
        clientId: 'unused-over-annex-c',
        nonce: 'unused-over-annex-c',
        flow: { kind: 'dc_api', origin: meta.origin },
        mdocSessionTranscript: opened.sessionTranscript,
        trust,
        statusLists: {
          check: async () => ({ ok: false, code: 'STATUS_LIST_UNAVAILABLE', message: 'no status lists here' }),
        },
        now: at,
      });
      report(
        result.ok,
        'DeviceResponse verified by the engine (issuer trust, MSO signature and digests, validity, device signature over the Annex C transcript, the request)',
        result.ok
          ? result.presentations
              .map(
                (p) =>
                  `${p.doctype}: ${Object.entries(p.claims)
                    .map(([ns, values]) => `${ns} ${Object.keys(values).join(', ')}`)
                    .join('; ')}`,
              )
              .join(' | ')
          : `${result.code}: ${result.message}`,
      );
      if (!result.ok) await checkOneByOne(opened);
    }
  }
} else if (responseFile) console.log('     the capture publishes no recipient key: the response cannot be opened');
process.exit(failed ? 1 : 0);

/**
 * When the engine stops at a row (the first failing row names the outcome), the
 * rows after it are still worth knowing for a capture: the MSO signature and
 * digests and the device signature over our Annex C transcript, checked with the
 * library and options the engine uses (`verification/verify-mdoc.ts`), without its
 * trust and validity rows.
 */
async function checkOneByOne(opened) {
  const { Verifier } = await import('@auth0/mdl');
  const outcomes = new Map();
  await new Verifier([])
    .verify(opened.deviceResponse, {
      encodedSessionTranscript: encodeTranscriptAsDataItem(opened.sessionTranscript),
      disableCertificateChainValidation: true,
      onCheck: (assessment) => outcomes.set(assessment.id, assessment.status),
    })
    .catch(() => {});
  for (const [id, what] of [
    ['ISSUER_SIGNATURE_VALIDITY', 'MSO signature'],
    ['VALUE_DIGESTS', 'value digests'],
    ['DEVICE_SIGNATURE_VALIDITY', 'device signature over our Annex C transcript'],
  ]) {
    const status = id === 'VALUE_DIGESTS' ? digestStatus(outcomes) : outcomes.get(id);
    console.log(`${status === 'PASSED' ? 'ok  ' : 'FAIL'} (row by row) ${what}${status ? '' : ': not reached'}`);
  }
  // The engine leaves these to its own rows (validity at the verification time, the one chain rule), as here.
  const engineOwn = [
    'MSO_VALIDITY_AT_VERIFICATION_TIME',
    'ISSUER_CERTIFICATE_VALIDITY',
    'ISSUER_SUBJECT_COUNTRY_NAME_PRESENCE',
  ];
  for (const [id, status] of outcomes)
    if (status === 'FAILED' && !engineOwn.includes(id)) console.log(`FAIL (row by row) ${id}`);
}

function digestStatus(outcomes) {
  const digests = [...outcomes].filter(([id]) => /DIGEST/.test(id));
  if (digests.length === 0) return undefined;
  return digests.every(([, status]) => status === 'PASSED') ? 'PASSED' : 'FAILED';
}
