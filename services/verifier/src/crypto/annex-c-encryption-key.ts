import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Decoder, Encoder } from 'cbor-x';
import type { JWK } from 'jose';

const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const generateEcKeyPair = promisify(generateKeyPair);

/** Nonce length: Annex C asks for at least 16 bytes of entropy; 32 as deployed verifiers send. */
const NONCE_BYTES = 32;

// COSE_Key labels (RFC 9052 §7, RFC 9053 §7.1): kty 1 = EC2, crv -1 = P-256, x -2, y -3, d -4.
const COSE_KTY = 1;
const COSE_KTY_EC2 = 2;
const COSE_CRV = -1;
const COSE_CRV_P256 = 1;
const COSE_X = -2;
const COSE_Y = -3;

export interface AnnexCEncryptionKey {
  /** base64url CBOR `["dcapi", { "nonce": bstr, "recipientPublicKey": COSE_Key }]`: `data.encryptionInfo`. */
  encryptionInfo: string;
  /** The HPKE recipient key; sealed at rest with the session, dropped when it settles. */
  privateJwk: JWK;
  publicJwk: JWK;
}

/**
 * A fresh P-256 HPKE recipient key and nonce for one `org-iso-mdoc` request
 * (ISO/IEC 18013-7:2025 Annex C): the EncryptionInfo the wallet encrypts its
 * DeviceResponse to. The COSE_Key carries kty, crv, x and y only, as deployed
 * verifiers send it.
 */
export async function generateAnnexCEncryptionKey(): Promise<AnnexCEncryptionKey> {
  const { publicKey, privateKey } = await generateEcKeyPair('ec', { namedCurve: 'P-256' });
  const privateJwk = privateKey.export({ format: 'jwk' }) as JWK;
  const publicJwk = publicKey.export({ format: 'jwk' }) as JWK;
  const encryptionInfo = encodeEncryptionInfo({ nonce: randomBytes(NONCE_BYTES), publicJwk });
  return { encryptionInfo, privateJwk, publicJwk };
}

/** base64url CBOR of an EncryptionInfo for `publicJwk` (a P-256 JWK) and `nonce`. */
export function encodeEncryptionInfo(options: { nonce: Uint8Array; publicJwk: JWK }): string {
  const { x, y, crv, kty } = options.publicJwk;
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) throw new Error('the recipient key must be a P-256 public JWK');
  const recipientPublicKey = new Map<number, unknown>([
    [COSE_KTY, COSE_KTY_EC2],
    [COSE_CRV, COSE_CRV_P256],
    [COSE_X, Buffer.from(x, 'base64url')],
    [COSE_Y, Buffer.from(y, 'base64url')],
  ]);
  const parameters = new Map<string, unknown>([
    ['nonce', Buffer.from(options.nonce)],
    ['recipientPublicKey', recipientPublicKey],
  ]);
  return Buffer.from(cbor.encode(['dcapi', parameters])).toString('base64url');
}

/** The nonce and recipient key of an EncryptionInfo this service encoded; throws on any other shape. */
export function decodeEncryptionInfo(encryptionInfo: string): { nonce: Uint8Array; publicJwk: JWK } {
  const decoded: unknown = decoder.decode(Buffer.from(encryptionInfo, 'base64url'));
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== 'dcapi' || !(decoded[1] instanceof Map))
    throw new Error('not an EncryptionInfo ["dcapi", { nonce, recipientPublicKey }]');
  const parameters = decoded[1] as Map<unknown, unknown>;
  const nonce = parameters.get('nonce');
  const key = parameters.get('recipientPublicKey');
  if (!(nonce instanceof Uint8Array) || !(key instanceof Map)) throw new Error('EncryptionInfo lacks nonce or key');
  const x = key.get(COSE_X);
  const y = key.get(COSE_Y);
  if (key.get(COSE_KTY) !== COSE_KTY_EC2 || key.get(COSE_CRV) !== COSE_CRV_P256)
    throw new Error('the recipient key is not an EC2 P-256 COSE_Key');
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32)
    throw new Error('the recipient key coordinates are not 32-byte strings');
  return {
    nonce: new Uint8Array(nonce),
    publicJwk: {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(x).toString('base64url'),
      y: Buffer.from(y).toString('base64url'),
    },
  };
}
