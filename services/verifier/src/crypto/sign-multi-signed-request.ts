import { GeneralSign, type JWTPayload } from 'jose';
import { REQUEST_OBJECT_TYP } from '../domain/request-object.js';
import type { RequestObjectKey } from './sign-request-object.js';

/** One signer of a multi-signed request: its key material and the client_id it authenticates as. */
export interface MultiSignedRequestSigner {
  /** The full client identifier, with its prefix (`x509_hash:…`, `decentralized_identifier:…`). */
  clientId: string;
  key: RequestObjectKey;
}

/** A JWS in General JSON Serialization (RFC 7515 §7.2.1), as `data.request` of `openid4vp-v1-multisigned`. */
export interface MultiSignedRequest {
  payload: string;
  signatures: Array<{ protected: string; signature: string }>;
}

/**
 * Signs one request for several trust frameworks at once (OpenID4VP 1.0
 * Appendix A.3.2): one signature per signer over the same payload, each
 * protected header carrying `typ`, `alg`, the signer's `client_id` and key
 * material (`x5c` or `kid`), plus `protectedHeader` (the request parameters that
 * belong in every signature's header, `verifier_info`). The payload must hold
 * neither `client_id` nor `verifier_info` (`splitMultiSignedRequest`); they are
 * refused here so no wallet sees two answers to "who asks".
 */
export async function signMultiSignedRequest(options: {
  payload: JWTPayload;
  signers: readonly MultiSignedRequestSigner[];
  protectedHeader?: Record<string, unknown>;
}): Promise<MultiSignedRequest> {
  if (options.signers.length === 0) throw new Error('a multi-signed request needs at least one signer');
  if ('client_id' in options.payload) throw new Error('a multi-signed payload carries no client_id');
  if ('verifier_info' in options.payload) throw new Error('a multi-signed payload carries no verifier_info');
  const jws = new GeneralSign(new TextEncoder().encode(JSON.stringify(options.payload)));
  for (const { clientId, key } of options.signers) {
    jws.addSignature(key.privateKey).setProtectedHeader({
      ...options.protectedHeader,
      alg: key.alg,
      typ: REQUEST_OBJECT_TYP,
      client_id: clientId,
      ...(key.x5c ? { x5c: key.x5c } : {}),
      ...(key.kid ? { kid: key.kid } : {}),
    });
  }
  const signed = await jws.sign();
  return {
    payload: signed.payload,
    signatures: signed.signatures.map((signature) => ({
      protected: signature.protected!,
      signature: signature.signature,
    })),
  };
}
