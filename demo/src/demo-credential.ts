import { webcrypto } from 'node:crypto';
import { issueSdJwtVc, publicJwkOf, type DemoIssuer, type IssuedCredential } from './issuer.js';

/** The type of the demo's age credential. */
export const DEMO_VCT = 'https://credentials.demo.tessera.example/age';

/** What the demo wallet holds: one credential and the key it is bound to. */
export interface DemoWalletCredential {
  credential: IssuedCredential;
  holderKey: webcrypto.CryptoKey;
}

/** The demo issuer issues an age credential for Alex Doe, bound to a fresh holder key, with a status list entry. */
export async function issueDemoCredential(options: {
  issuer: DemoIssuer;
  status: { idx: number; uri: string };
}): Promise<DemoWalletCredential> {
  const holder = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const credential = await issueSdJwtVc(options.issuer, {
    vct: DEMO_VCT,
    claims: { given_name: 'Alex', family_name: 'Doe', age_over_18: true, birthdate: '1990-04-01' },
    holderPublicJwk: await publicJwkOf(holder.publicKey),
    status: options.status,
  });
  return { credential, holderKey: holder.privateKey };
}
