// Request-signing keys per organisation and key type. Tenant scoping: every query takes `orgId`,
// except the start-time walk over platform-issued keys (`listPlatformSigningKeys`), which is platform work.
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { preparedFor } from '@tessera/service-kit';
import { platformSettings, signingKeys, type SigningKeyRow } from './schema.js';
import type { VerifierDb } from './types.js';

export async function findSigningKey(
  db: VerifierDb,
  params: { orgId: string; keyType: string },
): Promise<SigningKeyRow | undefined> {
  const [row] = await selectSigningKey(db).execute(params);
  return row;
}

/** Read for every session created (`loadSigningMaterial`): prepared once per database handle. */
const selectSigningKey = preparedFor((db: VerifierDb) =>
  db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.orgId, sql.placeholder('orgId')), eq(signingKeys.keyType, sql.placeholder('keyType'))))
    .prepare('find_signing_key'),
);

/** First writer wins: a concurrent first use by two replicas ends with one key, which both read back. */
export async function insertSigningKeyIfAbsent(
  db: VerifierDb,
  values: {
    orgId: string;
    keyType: string;
    publicJwk: Record<string, unknown>;
    encryptedPrivateKey: string;
    certificateChain: string[] | null;
    source: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insert(signingKeys)
    .values({ ...values, createdAt: values.now, updatedAt: values.now })
    .onConflictDoNothing();
}

/** Replaces the certificate chain only if the row still has the chain the caller saw (no lost update between replicas). */
export async function replaceCertificateChain(
  db: VerifierDb,
  params: { orgId: string; keyType: string; expectedUpdatedAt: Date; certificateChain: string[]; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(signingKeys)
    .set({ certificateChain: params.certificateChain, updatedAt: params.now })
    .where(
      and(
        eq(signingKeys.orgId, params.orgId),
        eq(signingKeys.keyType, params.keyType),
        eq(signingKeys.updatedAt, params.expectedUpdatedAt),
      ),
    )
    .returning({ orgId: signingKeys.orgId });
  return rows.length > 0;
}

/** An organisation's own key and chain (imported with its key, or certified after a CSR) replace whatever was there. */
export async function upsertImportedSigningKey(
  db: VerifierDb,
  values: {
    orgId: string;
    keyType: string;
    publicJwk: Record<string, unknown>;
    encryptedPrivateKey: string;
    certificateChain: string[];
    source: 'imported' | 'csr';
    now: Date;
  },
): Promise<SigningKeyRow> {
  const [row] = await db
    .insert(signingKeys)
    .values({ ...values, createdAt: values.now, updatedAt: values.now })
    .onConflictDoUpdate({
      target: [signingKeys.orgId, signingKeys.keyType],
      set: {
        publicJwk: values.publicJwk,
        encryptedPrivateKey: values.encryptedPrivateKey,
        certificateChain: values.certificateChain,
        source: values.source,
        updatedAt: values.now,
      },
    })
    .returning();
  return row!;
}

export async function findPlatformSetting(db: VerifierDb, name: string): Promise<Record<string, string> | undefined> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.name, name));
  return row?.value;
}

/** Insert-on-conflict-do-nothing, then read back: replicas starting together agree on one value. */
export async function ensurePlatformSetting(
  db: VerifierDb,
  name: string,
  create: () => Promise<Record<string, string>> | Record<string, string>,
): Promise<Record<string, string>> {
  const existing = await findPlatformSetting(db, name);
  if (existing) return existing;
  await db
    .insert(platformSettings)
    .values({ name, value: await create() })
    .onConflictDoNothing();
  const stored = await findPlatformSetting(db, name);
  if (!stored) throw new Error(`platform setting ${name} could not be stored`);
  return stored;
}

/**
 * Replaces a platform setting only if it still holds `expected` (compared as JSON):
 * of replicas starting together, one replaces it and the others read back its value.
 */
export async function replacePlatformSetting(
  db: VerifierDb,
  params: { name: string; expected: Record<string, string>; value: Record<string, string> },
): Promise<boolean> {
  const rows = await db
    .update(platformSettings)
    .set({ value: params.value })
    .where(
      and(
        eq(platformSettings.name, params.name),
        sql`${platformSettings.value} = ${JSON.stringify(params.expected)}::jsonb`,
      ),
    )
    .returning({ name: platformSettings.name });
  return rows.length > 0;
}

/** Upsert of a platform setting (last writer wins): for markers whose value any replica may write. */
export async function upsertPlatformSetting(
  db: VerifierDb,
  params: { name: string; value: Record<string, string> },
): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ name: params.name, value: params.value })
    .onConflictDoUpdate({ target: platformSettings.name, set: { value: params.value } });
}

/** A page of platform-issued signing keys (all organisations), in key order after `after`: the start-time re-issue walks them. */
export async function listPlatformSigningKeys(
  db: VerifierDb,
  params: { after?: { orgId: string; keyType: string }; limit: number },
): Promise<SigningKeyRow[]> {
  const after = params.after;
  return db
    .select()
    .from(signingKeys)
    .where(
      and(
        eq(signingKeys.source, 'platform'),
        after
          ? or(
              gt(signingKeys.orgId, after.orgId),
              and(eq(signingKeys.orgId, after.orgId), gt(signingKeys.keyType, after.keyType)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(signingKeys.orgId), asc(signingKeys.keyType))
    .limit(params.limit);
}
