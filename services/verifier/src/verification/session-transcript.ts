import { createHash } from 'node:crypto';
import { Encoder, Tag } from 'cbor-x';
import { calculateJwkThumbprint, type JWK } from 'jose';

// Plain CBOR: byte strings untagged, arrays as arrays (RFC 8949 preferred encoding).
const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });

export type SessionTranscriptFlow =
  | { kind: 'redirect'; clientId: string; responseUri: string }
  /** `origin` is the web origin without the `origin:` prefix. */
  | { kind: 'dc_api'; origin: string };

export interface BuildSessionTranscriptOptions {
  flow: SessionTranscriptFlow;
  nonce: string;
  /** RFC 7638 SHA-256 thumbprint of the verifier's encryption JWK when the response was encrypted, else null. */
  jwkThumbprint: Uint8Array | null;
}

/**
 * The mdoc SessionTranscript of OpenID4VP 1.0 Appendix B.2.6:
 * `[null, null, ["OpenID4VPHandover", sha256(cbor([clientId, nonce, jwkThumbprint, responseUri]))]]`
 * for redirect flows and `[null, null, ["OpenID4VPDCAPIHandover", sha256(cbor([origin, nonce, jwkThumbprint]))]]`
 * over the DC API. Returns its CBOR bytes (see ../spec/vectors.md).
 */
export function buildSessionTranscript(options: BuildSessionTranscriptOptions): Uint8Array {
  const thumbprint = options.jwkThumbprint ? Buffer.from(options.jwkThumbprint) : null;
  const handover =
    options.flow.kind === 'redirect'
      ? [
          'OpenID4VPHandover',
          sha256(cbor.encode([options.flow.clientId, options.nonce, thumbprint, options.flow.responseUri])),
        ]
      : ['OpenID4VPDCAPIHandover', sha256(cbor.encode([options.flow.origin, options.nonce, thumbprint]))];
  return new Uint8Array(cbor.encode([null, null, handover]));
}

/** The transcript as `@auth0/mdl`'s verifier takes it: wrapped in CBOR tag 24 (encoded CBOR data item). */
export function encodeTranscriptAsDataItem(transcript: Uint8Array): Uint8Array {
  return new Uint8Array(cbor.encode(new Tag(Buffer.from(transcript), 24)));
}

/** RFC 7638 SHA-256 thumbprint of a public JWK, as raw bytes (the handover's `jwkThumbprint`). */
export async function computeJwkThumbprint(publicJwk: JWK): Promise<Uint8Array> {
  return new Uint8Array(Buffer.from(await calculateJwkThumbprint(publicJwk, 'sha256'), 'base64url'));
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}
