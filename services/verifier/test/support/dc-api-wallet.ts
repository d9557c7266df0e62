// A wallet answering a Digital Credentials API request on each protocol, with
// libraries the service does not use for the job: @openid4vc/openid4vp resolves
// and answers the OpenID4VP protocols (node:crypto and @peculiar/x509 check each
// signature of a multi-signed request, which the library cannot), and the Annex C
// holder (@owf/mdoc, panva's hpke) answers `org-iso-mdoc`.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import type { DcApiRequest, GeneralJws } from '@tessera/contracts';
import { x509 } from '../verification/support/pki.js';
import { answerAnnexCRequest, type AnnexCDocument } from './annex-c-holder.js';
import type { E2e } from './e2e.js';
import {
  buildResponse,
  dcApiPayload,
  presentMdl,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  type ResolvedRequest,
} from './holder.js';
import { issueMdl, issuePid, MDL_DOCTYPE, newHolder, type Holder } from './issuers.js';
import { checkChainToCa, createVerifyJwt } from './wallet.js';

export type DcApiFormat = 'sd-jwt' | 'mdoc';

/** One signature of a multi-signed request, checked: its protected header and the key that verified it. */
export interface CheckedSignature {
  header: Record<string, unknown>;
}

/**
 * What a wallet does with `openid4vp-v1-multisigned` before trusting it: every
 * signature verifies with the key its protected header names (an x5c chain to the
 * platform CA whose `x509_hash` is the `client_id`, or the `did:jwk` of the `kid`),
 * and the header carries the `client_id`. Throws when one does not hold. Returns
 * the headers and the payload.
 */
export async function checkMultiSignedRequest(
  request: GeneralJws,
  caPem: string,
): Promise<{ payload: Record<string, unknown>; signatures: CheckedSignature[] }> {
  const signatures: CheckedSignature[] = [];
  for (const [index, { protected: protectedHeader, signature }] of request.signatures.entries()) {
    const header = JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (header.typ !== 'oauth-authz-req+jwt') throw new Error(`signature ${index} has typ ${String(header.typ)}`);
    let publicKey;
    if (Array.isArray(header.x5c)) {
      const { leaf } = await checkChainToCa(header.x5c as string[], caPem);
      const hash = createHash('sha256')
        .update(Buffer.from(String(header.x5c[0]), 'base64'))
        .digest('base64url');
      if (header.client_id !== `x509_hash:${hash}`)
        throw new Error(`signature ${index}: client_id is not the x5c hash`);
      publicKey = createPublicKey(leaf.toString('pem'));
    } else {
      const did = String(header.kid).split('#')[0]!;
      if (header.client_id !== `decentralized_identifier:${did}`)
        throw new Error(`signature ${index}: client_id is not the kid's DID`);
      const jwk = JSON.parse(Buffer.from(did.slice('did:jwk:'.length), 'base64url').toString('utf8'));
      publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    }
    const signingInput = Buffer.from(`${protectedHeader}.${request.payload}`);
    const signatureBytes = Buffer.from(signature, 'base64url');
    const valid =
      header.alg === 'EdDSA'
        ? verify(null, signingInput, publicKey, signatureBytes)
        : verify('sha256', signingInput, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signatureBytes);
    if (!valid) throw new Error(`signature ${index} does not verify`);
    signatures.push({ header });
  }
  return {
    payload: JSON.parse(Buffer.from(request.payload, 'base64url').toString('utf8')) as Record<string, unknown>,
    signatures,
  };
}

/** The independent wallet library resolving a DC API request's parameters handed over at `origin`. */
export function resolveDcApiParameters(
  e2e: Pick<E2e, 'wallet'>,
  parameters: Record<string, unknown>,
  origin: string,
): Promise<ResolvedRequest> {
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: parameters,
    origin,
    callbacks: {
      verifyJwt: createVerifyJwt(e2e.wallet.caPem),
      hash: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
      fetch: e2e.wallet.fetch,
      getX509CertificateMetadata: () => ({ sanDnsNames: [], sanUriNames: [] }),
      decryptJwe: () => Promise.reject(new Error('no encrypted request here')),
    },
  });
}

/** The request of one OpenID4VP protocol as the wallet resolves it (multi-signed: its signatures checked first). */
export async function resolveOpenid4vpDcApiRequest(
  e2e: Pick<E2e, 'wallet'>,
  request: DcApiRequest,
  origin: string,
): Promise<ResolvedRequest> {
  switch (request.protocol) {
    case 'openid4vp-v1-signed':
      return resolveDcApiRequest(e2e.wallet, request.data, origin);
    case 'openid4vp-v1-unsigned':
      return resolveDcApiParameters(e2e, request.data, origin);
    case 'openid4vp-v1-multisigned': {
      const { payload } = await checkMultiSignedRequest(request.data.request, e2e.wallet.caPem);
      return resolveDcApiParameters(e2e, payload, origin);
    }
    default:
      throw new Error(`${request.protocol} is not an OpenID4VP protocol`);
  }
}

export interface DcApiAnswerOptions {
  /** The origin the browser reports to the wallet. */
  origin: string;
  format: DcApiFormat;
  /** SD-JWT VC: the KB-JWT `aud` (default `origin:<origin>`, OpenID4VP 1.0 Appendix A.4). */
  aud?: string;
  /** `org-iso-mdoc`: bind the answer to another origin than the one the request was checked under. */
  transcriptOrigin?: string;
  /** `org-iso-mdoc`: what the wallet holds, per doctype (default a fresh mDL of the setting's issuer). */
  documents?: Record<string, AnnexCDocument>;
  holder?: Holder;
}

/**
 * The browser's `DigitalCredential.data` after the wallet answered `request`: for
 * the OpenID4VP protocols `{ vp_token }` or `{ response: <JWE> }`, for `org-iso-mdoc`
 * `{ response: <EncryptedResponse> }`. The credential is the setting issuer's PID
 * (SD-JWT VC, query `pid`) or mDL (query `mdl`).
 */
export async function answerDcApi(
  e2e: E2e,
  request: DcApiRequest,
  options: DcApiAnswerOptions,
): Promise<Record<string, unknown>> {
  const holder = options.holder ?? (await newHolder());
  if (request.protocol === 'org-iso-mdoc') {
    const documents = options.documents ?? {
      [MDL_DOCTYPE]: { issuerSigned: await issueMdl(e2e.issuer, holder), devicePrivateJwk: holder.privateJwk },
    };
    const { response } = await answerAnnexCRequest(request.data, {
      origin: options.origin,
      readerAnchors: [new Uint8Array(new x509.X509Certificate(e2e.wallet.caPem).rawData)],
      documents,
      ...(options.transcriptOrigin ? { transcriptOrigin: options.transcriptOrigin } : {}),
    });
    return { response };
  }
  const resolved = await resolveOpenid4vpDcApiRequest(e2e, request, options.origin);
  const facts = requestFacts(resolved);
  const presentation =
    options.format === 'sd-jwt'
      ? await presentPid(await issuePid(e2e.issuer, holder), holder, facts, {
          origin: options.origin,
          ...(options.aud ? { aud: options.aud } : {}),
        })
      : await presentMdl(await issueMdl(e2e.issuer, holder), holder, facts, { origin: options.origin });
  const built = await buildResponse(
    e2e.wallet,
    resolved,
    { [options.format === 'sd-jwt' ? 'pid' : 'mdl']: [presentation] },
    options.origin,
  );
  return dcApiPayload(built);
}

/** The entry of `protocol` among a session's `dcApiRequests`. */
export function requestOf(session: { dcApiRequests?: DcApiRequest[] }, protocol: DcApiRequest['protocol']) {
  const request = session.dcApiRequests?.find((entry) => entry.protocol === protocol);
  if (!request) throw new Error(`the session offers no ${protocol} request`);
  return request;
}
