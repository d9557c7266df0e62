// Keys made for certificate signing requests, waiting for their chain. Tenant scoping: every
// query takes `orgId` and filters on it.
import { and, asc, eq } from 'drizzle-orm';
import { pendingSigningKeys, type PendingSigningKeyRow } from './schema.js';
import type { VerifierDb } from './types.js';

export type NewPendingSigningKey = typeof pendingSigningKeys.$inferInsert;

/** Stores the pending key of the organisation and key type, replacing the one there was (a new request supersedes it). */
export async function replacePendingSigningKey(
  db: VerifierDb,
  values: NewPendingSigningKey,
): Promise<PendingSigningKeyRow> {
  const [row] = await db
    .insert(pendingSigningKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [pendingSigningKeys.orgId, pendingSigningKeys.keyType],
      set: {
        keyId: values.keyId,
        publicJwk: values.publicJwk,
        encryptedPrivateKey: values.encryptedPrivateKey,
        request: values.request,
        csrPem: values.csrPem,
        createdAt: values.createdAt,
      },
    })
    .returning();
  return row!;
}

export async function findPendingSigningKey(
  db: VerifierDb,
  params: { orgId: string; keyType: string },
): Promise<PendingSigningKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(pendingSigningKeys)
    .where(and(eq(pendingSigningKeys.orgId, params.orgId), eq(pendingSigningKeys.keyType, params.keyType)));
  return row;
}

/** The organisation's pending keys, by key type. */
export async function listPendingSigningKeys(
  db: VerifierDb,
  params: { orgId: string },
): Promise<PendingSigningKeyRow[]> {
  return db
    .select()
    .from(pendingSigningKeys)
    .where(eq(pendingSigningKeys.orgId, params.orgId))
    .orderBy(asc(pendingSigningKeys.keyType));
}

/**
 * Takes the pending key `keyId` out (when its chain arrived): false when it is no longer there —
 * a newer request replaced it, or another import took it first.
 */
export async function takePendingSigningKey(
  db: VerifierDb,
  params: { orgId: string; keyId: string },
): Promise<boolean> {
  const rows = await db
    .delete(pendingSigningKeys)
    .where(and(eq(pendingSigningKeys.orgId, params.orgId), eq(pendingSigningKeys.keyId, params.keyId)))
    .returning({ keyId: pendingSigningKeys.keyId });
  return rows.length > 0;
}
