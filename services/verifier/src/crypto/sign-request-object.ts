import { SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { REQUEST_OBJECT_TYP } from '../domain/request-object.js';

export interface RequestObjectKey {
  privateKey: CryptoKey;
  alg: 'ES256' | 'EdDSA';
  /** X.509 signers: the chain (base64 DER, leaf first, without the trust anchor). */
  x5c?: string[];
  /** DID signers: the verification method, `<did>#0`. */
  kid?: string;
}

/** Signs a request object payload as a compact JWS with the signer's header. */
export async function signRequestObject(options: { payload: JWTPayload; key: RequestObjectKey }): Promise<string> {
  const { key } = options;
  return new SignJWT(options.payload)
    .setProtectedHeader({
      alg: key.alg,
      typ: REQUEST_OBJECT_TYP,
      ...(key.x5c ? { x5c: key.x5c } : {}),
      ...(key.kid ? { kid: key.kid } : {}),
    })
    .sign(key.privateKey);
}
