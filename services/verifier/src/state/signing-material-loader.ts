import type { CryptoKey, JWK } from 'jose';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { LRUCache } from 'lru-cache';
import { issueLeafCertificate, leafNeedsRenewal, leafRenewalDate } from '../crypto/leaf-certificate.js';
import type { PlatformCa } from '../crypto/platform-ca.js';
import { signingKeyContext } from '../crypto/sealing-contexts.js';
import { generateSigningKeyPair, importSigningKey, jwsAlgorithmOf, type KeyType } from '../crypto/signing-key.js';
import type { SigningKeyRow } from '../db/schema.js';

/** Where the signer in force came from: a platform leaf, a chain imported with its key, or a chain for a key made here (CSR). */
export type SigningKeySource = 'platform' | 'imported' | 'csr';
import { findSigningKey, insertSigningKeyIfAbsent, replaceCertificateChain } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';

// Shared step: an organisation's request-signing key and chain (session
// creation, request-object fetch, `GET certificates/{keyType}`).

export interface SigningMaterial {
  keyType: KeyType;
  alg: 'ES256' | 'EdDSA';
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** x5c: base64 DER, leaf first, without the trust anchor. */
  chain: string[];
  source: SigningKeySource;
}

export interface LoadSigningMaterialDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  ca: PlatformCa;
  /** Host of PUBLIC_BASE_URL: SAN dNSName of platform-issued leaves. */
  host: string;
  clock: Clock;
}

export interface LoadSigningMaterialInput {
  orgId: string;
  keyType: KeyType;
}

/** `loadSigningMaterial` bound to its deps once (`buildApp`), for the use cases that sign. */
export type LoadSigningMaterial = (input: LoadSigningMaterialInput) => Promise<SigningMaterial>;

/**
 * `loadSigningMaterial` bound to its deps, remembering what it derived per
 * organisation and key type: the stored row is still read on every call (so a
 * key imported or renewed through any replica applies to the very next
 * session), but the key is decrypted and imported, and the platform leaf parsed
 * and judged, only when that row changed or the leaf nears its renewal date.
 */
export function createSigningMaterialLoader(deps: LoadSigningMaterialDeps): LoadSigningMaterial {
  return createSigningMaterials(deps).load;
}

/** The row fields signing material is derived from: any change means derive again. */
export interface SigningKeyVersion {
  source: string;
  encryptedPrivateKey: string;
  certificateChain: string[] | null;
}

/** Material as last derived, with the row version it came from (`rememberedSigningMaterial`). */
export interface RememberedSigningMaterial {
  material: SigningMaterial;
  version: SigningKeyVersion;
}

/**
 * What was last derived for an organisation's key type, without reading the row — for a
 * caller whose own statement then checks the row is still `version` (session creation:
 * `insertSession`); undefined when nothing is remembered or a platform leaf may be due.
 */
export type RememberSigningMaterial = (input: LoadSigningMaterialInput) => RememberedSigningMaterial | undefined;

/** `createSigningMaterialLoader`'s loader, and a look at what it remembers (one memory for both). */
export function createSigningMaterials(deps: LoadSigningMaterialDeps): {
  load: LoadSigningMaterial;
  remembered: RememberSigningMaterial;
} {
  const derived = new LRUCache<string, DerivedMaterial>({ max: 10_000 });
  return {
    load: (input) => loadSigningMaterial(deps, input, derived),
    remembered: (input) => {
      const known = derived.get(`${input.orgId}|${input.keyType}`);
      if (!known || deps.clock().getTime() >= known.recheckAt) return undefined;
      return { material: known.material, version: known.row };
    },
  };
}

/** Material derived from one version of a signing-key row, valid until `recheckAt`. */
interface DerivedMaterial {
  /** The row fields the material was derived from: any change means derive again. */
  version: string;
  row: SigningKeyVersion;
  material: SigningMaterial;
  /** Epoch ms from which a platform leaf may be due for renewal (`leafRenewalDate`). */
  recheckAt: number;
}

function versionOf(row: SigningKeyVersion): string {
  return `${row.source}|${row.encryptedPrivateKey}|${(row.certificateChain ?? []).join(',')}`;
}

/**
 * The organisation's signing key and certificate chain of `keyType`, created
 * on first use (key sealed with KEY_ENCRYPTION_KEY, leaf issued by the
 * platform CA) and re-certified when the platform leaf is due. A key that
 * cannot be decrypted throws KeyDecryptionError: never a silent new key.
 */
export async function loadSigningMaterial(
  deps: LoadSigningMaterialDeps,
  input: LoadSigningMaterialInput,
  derived?: LRUCache<string, DerivedMaterial>,
): Promise<SigningMaterial> {
  const { db } = deps;
  const { orgId, keyType } = input;
  const now = deps.clock();
  let row = await findSigningKey(db, { orgId, keyType });
  if (!row) {
    const { publicJwk, privateJwk } = await generateSigningKeyPair(keyType);
    const chain = [await issueLeafCertificate({ ca: deps.ca, publicJwk, keyType, host: deps.host, orgId, now })];
    await insertSigningKeyIfAbsent(db, {
      orgId,
      keyType,
      publicJwk: publicJwk as Record<string, unknown>,
      encryptedPrivateKey: deps.keyEncryptionKey.seal(JSON.stringify(privateJwk), signingKeyContext(orgId, keyType)),
      certificateChain: chain,
      source: 'platform',
      now,
    });
    row = await findSigningKey(db, { orgId, keyType });
    if (!row) throw new Error(`signing key ${keyType} of ${orgId} could not be stored`);
  }
  const cacheKey = `${orgId}|${keyType}`;
  const version = versionOf(row);
  const known = derived?.get(cacheKey);
  if (known && known.version === version && now.getTime() < known.recheckAt) return known.material;

  const privateJwk = JSON.parse(
    deps.keyEncryptionKey.open(row.encryptedPrivateKey, signingKeyContext(orgId, keyType)),
  ) as JWK;
  const platform = row.source === 'platform' ? await currentPlatformChain(deps, { ...input, now }, row) : undefined;
  const material: SigningMaterial = {
    keyType,
    alg: jwsAlgorithmOf(keyType),
    privateKey: await importSigningKey(privateJwk, keyType),
    publicJwk: row.publicJwk as JWK,
    chain: platform?.chain ?? row.certificateChain ?? [],
    source: row.source === 'imported' || row.source === 'csr' ? row.source : 'platform',
  };
  // A renewed chain is not yet what the row says: derive again from the stored row next time.
  if (derived && !platform?.renewed) {
    derived.set(cacheKey, {
      version,
      row: { source: row.source, encryptedPrivateKey: row.encryptedPrivateKey, certificateChain: row.certificateChain },
      material,
      recheckAt: platform
        ? leafRenewalDate({ chain: material.chain, ca: deps.ca }).getTime()
        : Number.POSITIVE_INFINITY,
    });
  }
  return material;
}

/** The platform-issued chain, replaced when it expires soon, names another host, or the CA changed. */
async function currentPlatformChain(
  deps: LoadSigningMaterialDeps,
  input: LoadSigningMaterialInput & { now: Date },
  row: SigningKeyRow,
): Promise<{ chain: string[]; renewed: boolean }> {
  const { ca, host } = deps;
  const { orgId, keyType, now } = input;
  const chain = row.certificateChain ?? [];
  if (!(await leafNeedsRenewal({ chain, ca, host, now }))) return { chain, renewed: false };
  const renewed = [await issueLeafCertificate({ ca, publicJwk: row.publicJwk as JWK, keyType, host, orgId, now })];
  // When another replica renewed first, our leaf is still a valid certificate of this key: use it for this request.
  await replaceCertificateChain(deps.db, {
    orgId,
    keyType,
    expectedUpdatedAt: row.updatedAt,
    certificateChain: renewed,
    now,
  });
  return { chain: renewed, renewed: true };
}
