import { webcrypto } from 'node:crypto';
import type { IssuerSigned } from '@owf/mdoc';
import { exportJWK, type JWK } from 'jose';
import { issueSdJwtVc, publicJwkOf, type DemoIssuer, type IssuedCredential } from './issuer.js';
import { issueMdl } from './mdoc-issuer.js';

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

/** What the demo wallet holds as an mDL: the issuer-signed mdoc and the device key it is bound to. */
export interface DemoWalletMdl {
  issuerSigned: IssuerSigned;
  holderPrivateJwk: JWK;
}

/** The demo issuer issues Alex Doe's mDL (ISO mdoc), bound to a fresh device key, its MSO naming a status list entry. */
export async function issueDemoMdl(options: {
  issuer: DemoIssuer;
  status: { idx: number; uri: string };
}): Promise<DemoWalletMdl> {
  const holder = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const issuerSigned = await issueMdl(options.issuer, {
    elements: { given_name: 'Alex', family_name: 'Doe', age_over_18: true },
    holderPublicJwk: await publicJwkOf(holder.publicKey),
    status: options.status,
  });
  return { issuerSigned, holderPrivateJwk: await exportJWK(holder.privateKey) };
}
