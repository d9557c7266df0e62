import { deflateSync } from 'node:zlib';
import { generateKeyPair, SignJWT } from 'jose';

/** Packs statuses least significant bit first, as draft-ietf-oauth-status-list §4 says. */
export function packStatuses(statuses: number[], bits: 1 | 2 | 4 | 8): Buffer {
  const perByte = 8 / bits;
  const bytes = Buffer.alloc(Math.ceil(statuses.length / perByte));
  statuses.forEach((status, index) => {
    bytes[Math.floor(index / perByte)]! |= status << ((index % perByte) * bits);
  });
  return bytes;
}

export function encodeLst(bytes: Buffer): string {
  return deflateSync(bytes, { level: 9 }).toString('base64url');
}

const issuerKey = generateKeyPair('ES256');

export interface TokenOptions {
  sub: string;
  iat?: number;
  /** 4,000,000,000 unless given; `null` leaves exp out. */
  exp?: number | null;
  ttl?: number;
  bits?: 1 | 2 | 4 | 8;
  statuses?: number[];
  lst?: string;
  typ?: string;
  extraPayload?: Record<string, unknown>;
}

/** A real issuer-signed status list token (ES256), as an issuer would POST it. */
export async function signStatusListToken(options: TokenOptions): Promise<string> {
  const bits = options.bits ?? 1;
  const lst = options.lst ?? encodeLst(packStatuses(options.statuses ?? [0, 1, 0, 0, 1, 0, 0, 0], bits));
  const { privateKey } = await issuerKey;
  const token = new SignJWT({
    status_list: { bits, lst },
    ...(options.ttl !== undefined ? { ttl: options.ttl } : {}),
    ...options.extraPayload,
  })
    .setProtectedHeader({ alg: 'ES256', typ: options.typ ?? 'statuslist+jwt', kid: 'issuer-1' })
    .setSubject(options.sub)
    .setIssuedAt(options.iat ?? 1_700_000_000);
  if (options.exp !== null) token.setExpirationTime(options.exp ?? 4_000_000_000);
  return token.sign(privateKey);
}

/** Builds a token from raw header and payload objects, for structure tests (unsigned garbage signature). */
export function rawToken(header: unknown, payload: unknown, signature = 'c2lnbmF0dXJl'): string {
  const encode = (value: unknown) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  return `${encode(header)}.${encode(payload)}.${signature}`;
}
