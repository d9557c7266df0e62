import { ECDH } from 'node:crypto';
import type { JWK } from 'jose';

export interface ResolveDidOptions {
  /** A DID or DID URL (`did:jwk:…#0`, `did:key:z…#z…`); the fragment is ignored. */
  did: string;
}

export type ResolveDidResult = { ok: true; did: string; publicJwk: JWK } | { ok: false; message: string };

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** Multicodec prefixes (unsigned varint) of the did:key key types we accept. */
const MULTICODECS: Array<{ prefix: number[]; length: number; toJwk: (key: Buffer) => JWK }> = [
  { prefix: [0xed, 0x01], length: 32, toJwk: (key) => ({ kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }) },
  { prefix: [0x80, 0x24], length: 33, toJwk: (key) => ecJwk(key, 'prime256v1', 'P-256', 32) },
  { prefix: [0x81, 0x24], length: 49, toJwk: (key) => ecJwk(key, 'secp384r1', 'P-384', 48) },
];

/**
 * Resolves `did:jwk` and `did:key` offline to the public JWK they embed
 * (VERIFIER.md, Trust anchors: no network). Any other method is refused.
 */
export function resolveDid(options: ResolveDidOptions): ResolveDidResult {
  const did = options.did.split('#')[0] ?? '';
  try {
    if (did.startsWith('did:jwk:')) return resolveDidJwk(did);
    if (did.startsWith('did:key:')) return resolveDidKey(did);
  } catch {
    // One sentence, not the parser's: its message quotes the bytes it could not read.
    return { ok: false, message: `${did} cannot be resolved: its encoding is invalid` };
  }
  return {
    ok: false,
    message: `only did:jwk and did:key are supported, not ${JSON.stringify(did.split(':').slice(0, 2).join(':'))}`,
  };
}

function resolveDidJwk(did: string): ResolveDidResult {
  const encoded = did.slice('did:jwk:'.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return { ok: false, message: `${did} is not base64url` };
  const jwk = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk) || typeof (jwk as JWK).kty !== 'string') {
    return { ok: false, message: `${did} does not embed a JWK` };
  }
  if (PRIVATE_MEMBERS.some((member) => member in jwk))
    return { ok: false, message: `${did} embeds private key material` };
  return { ok: true, did, publicJwk: jwk as JWK };
}

function resolveDidKey(did: string): ResolveDidResult {
  const multibase = did.slice('did:key:'.length);
  if (!multibase.startsWith('z')) return { ok: false, message: `${did} is not base58btc multibase` };
  const bytes = decodeBase58(multibase.slice(1));
  for (const codec of MULTICODECS) {
    const matches = codec.prefix.every((byte, index) => bytes[index] === byte);
    if (!matches) continue;
    const key = bytes.subarray(codec.prefix.length);
    if (key.length !== codec.length) return { ok: false, message: `${did} has a key of the wrong length` };
    return { ok: true, did, publicJwk: codec.toJwk(key) };
  }
  return { ok: false, message: `${did} uses a key type other than Ed25519, P-256 or P-384` };
}

function ecJwk(compressed: Buffer, curve: string, crv: string, size: number): JWK {
  const point = ECDH.convertKey(compressed, curve, undefined, undefined, 'uncompressed') as Buffer;
  return {
    kty: 'EC',
    crv,
    x: point.subarray(1, 1 + size).toString('base64url'),
    y: point.subarray(1 + size).toString('base64url'),
  };
}

function decodeBase58(text: string): Buffer {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`invalid base58 character ${JSON.stringify(char)}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const leadingZeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(leadingZeros), body]);
}
