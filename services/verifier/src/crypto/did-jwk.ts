import type { JWK } from 'jose';
import { publicJwkOf } from './signing-key.js';

/** `did:jwk` of a public key (did:jwk method: base64url of the JWK's JSON). */
export function didJwkOf(publicJwk: JWK): string {
  return `did:jwk:${Buffer.from(JSON.stringify(publicJwkOf(publicJwk)), 'utf8').toString('base64url')}`;
}
