import type { CryptoKey, JWK } from 'jose';
import type { PlatformCa } from '../crypto/platform-ca.js';
import { issueReaderAuthLeafCertificate, readerAuthLeafNeedsRenewal } from '../crypto/reader-auth-leaf-certificate.js';
import { samePublicKey } from '../crypto/signing-key.js';
import {
  findReaderCertificate,
  insertPlatformReaderCertificateIfAbsent,
  replaceWithPlatformReaderCertificate,
} from '../db/reader-certificates.js';
import type { ReaderCertificateRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';
import type { LoadSigningMaterial } from './signing-material-loader.js';

// An organisation's mdoc reader authentication (ISO/IEC 18013-5 §9.1.4, used by
// `org-iso-mdoc` requests): its P-256 request-signing key and the chain that
// certifies that key for reader authentication.

export interface ReaderAuthMaterial {
  /** The organisation's P-256 request-signing key: ReaderAuths are signed with it. */
  privateKey: CryptoKey;
  /** The reader chain, base64 DER, leaf first, without the trust anchor (the ReaderAuth `x5chain`). */
  chain: string[];
  source: 'platform' | 'imported';
}

export interface LoadReaderAuthMaterialDeps {
  db: VerifierDb;
  ca: PlatformCa;
  /** Host of PUBLIC_BASE_URL: SAN dNSName of platform-issued reader leaves, as on the request-signing leaf. */
  host: string;
  clock: Clock;
  loadSigningMaterial: LoadSigningMaterial;
}

/** `loadReaderAuthMaterial` bound to its deps once (`buildApp`), for the use cases that sign ReaderAuths or show the chain. */
export type LoadReaderAuthMaterial = (input: { orgId: string }) => Promise<ReaderAuthMaterial>;

export function createReaderAuthMaterialLoader(deps: LoadReaderAuthMaterialDeps): LoadReaderAuthMaterial {
  return (input) => loadReaderAuthMaterial(deps, input);
}

/**
 * The organisation's reader-authentication key and chain. The chain is the
 * organisation's imported one when it certifies the current P-256 key;
 * otherwise a leaf the platform CA issues for that key (at first use, and again
 * when it needs renewal exactly as the request-signing leaf does, lacks the
 * reader purpose, or certifies a key the organisation has replaced since). The
 * stored row is read on every call, so a chain imported through any replica
 * applies to the very next session.
 */
export async function loadReaderAuthMaterial(
  deps: LoadReaderAuthMaterialDeps,
  input: { orgId: string },
): Promise<ReaderAuthMaterial> {
  const { orgId } = input;
  const signing = await deps.loadSigningMaterial({ orgId, keyType: 'P256' });
  const row = await findReaderCertificate(deps.db, { orgId });
  const now = deps.clock();
  if (row && samePublicKey(row.publicJwk as JWK, signing.publicJwk)) {
    if (row.source === 'imported')
      return { privateKey: signing.privateKey, chain: row.certificateChain, source: 'imported' };
    if (!(await readerAuthLeafNeedsRenewal({ chain: row.certificateChain, ca: deps.ca, host: deps.host, now })))
      return { privateKey: signing.privateKey, chain: row.certificateChain, source: 'platform' };
  }
  const chain = [
    await issueReaderAuthLeafCertificate({ ca: deps.ca, publicJwk: signing.publicJwk, host: deps.host, orgId, now }),
  ];
  await storePlatformChain(deps.db, { orgId, publicJwk: signing.publicJwk, chain, now, row });
  // When another replica stored first, this leaf is still a valid certificate of the key: used for this request.
  return { privateKey: signing.privateKey, chain, source: 'platform' };
}

async function storePlatformChain(
  db: VerifierDb,
  params: { orgId: string; publicJwk: JWK; chain: string[]; now: Date; row: ReaderCertificateRow | undefined },
): Promise<void> {
  const values = {
    orgId: params.orgId,
    publicJwk: params.publicJwk as Record<string, unknown>,
    certificateChain: params.chain,
    now: params.now,
  };
  if (params.row)
    await replaceWithPlatformReaderCertificate(db, { ...values, expectedUpdatedAt: params.row.updatedAt });
  else await insertPlatformReaderCertificateIfAbsent(db, values);
}
