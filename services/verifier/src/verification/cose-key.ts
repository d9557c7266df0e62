import { createPublicKey, type KeyObject } from 'node:crypto';

// A COSE_Key (RFC 9052 §7, RFC 9053 §7.1-7.2) as the public key node:crypto verifies with:
// the mdoc's device key (MSO deviceKeyInfo), imported once per presentation.

const KTY = 1;
const CRV = -1;
const X = -2;
const Y = -3;
const KTY_OKP = 1;
const KTY_EC2 = 2;
const EC2_CURVES = new Map([
  [1, 'P-256'],
  [2, 'P-384'],
  [3, 'P-521'],
]);
const OKP_CURVES = new Map([
  [6, 'Ed25519'],
  [7, 'Ed448'],
]);

/** The public key of an EC2 or OKP COSE_Key (a CBOR map with integer labels); throws with a sentence. */
export function importCosePublicKey(coseKey: unknown): KeyObject {
  if (!(coseKey instanceof Map)) throw new Error('the device key is not a COSE_Key map');
  const bytes = (label: number, name: string): string => {
    const value: unknown = coseKey.get(label);
    if (!(value instanceof Uint8Array) || value.length === 0) throw new Error(`the device key has no ${name}`);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64url');
  };
  const kty: unknown = coseKey.get(KTY);
  const crvLabel: unknown = coseKey.get(CRV);
  if (kty === KTY_EC2) {
    const crv = EC2_CURVES.get(crvLabel as number);
    if (!crv) throw new Error(`the device key's EC2 curve ${String(crvLabel)} is not supported`);
    return createPublicKey({ key: { kty: 'EC', crv, x: bytes(X, 'x'), y: bytes(Y, 'y') }, format: 'jwk' });
  }
  if (kty === KTY_OKP) {
    const crv = OKP_CURVES.get(crvLabel as number);
    if (!crv) throw new Error(`the device key's OKP curve ${String(crvLabel)} is not supported`);
    return createPublicKey({ key: { kty: 'OKP', crv, x: bytes(X, 'x') }, format: 'jwk' });
  }
  throw new Error(`the device key type ${String(kty)} is not supported`);
}
