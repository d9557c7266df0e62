// mdoc reader-authentication chains per organisation. Tenant scoping: every query takes `orgId`,
// except the start-time walk over platform-issued chains (`listPlatformReaderCertificates`), which is platform work.
import { and, asc, eq, gt } from 'drizzle-orm';
import { readerCertificates, type ReaderCertificateRow } from './schema.js';
import type { VerifierDb } from './types.js';

export async function findReaderCertificate(
  db: VerifierDb,
  params: { orgId: string },
): Promise<ReaderCertificateRow | undefined> {
  const [row] = await db.select().from(readerCertificates).where(eq(readerCertificates.orgId, params.orgId));
  return row;
}

export interface ReaderCertificateValues {
  orgId: string;
  publicJwk: Record<string, unknown>;
  certificateChain: string[];
  now: Date;
}

/** A first platform-issued chain; of replicas issuing together, the first insert wins (the others' leaves stay valid for their request). */
export async function insertPlatformReaderCertificateIfAbsent(
  db: VerifierDb,
  values: ReaderCertificateValues,
): Promise<void> {
  await db
    .insert(readerCertificates)
    .values({ ...values, source: 'platform', createdAt: values.now, updatedAt: values.now })
    .onConflictDoNothing();
}

/** Replaces a chain with a platform-issued one only if the row is still the one the caller read (no lost update between replicas). */
export async function replaceWithPlatformReaderCertificate(
  db: VerifierDb,
  params: ReaderCertificateValues & { expectedUpdatedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(readerCertificates)
    .set({
      publicJwk: params.publicJwk,
      certificateChain: params.certificateChain,
      source: 'platform',
      updatedAt: params.now,
    })
    .where(and(eq(readerCertificates.orgId, params.orgId), eq(readerCertificates.updatedAt, params.expectedUpdatedAt)))
    .returning({ orgId: readerCertificates.orgId });
  return rows.length > 0;
}

/** The organisation's own chain replaces whatever was there. */
export async function upsertImportedReaderCertificate(
  db: VerifierDb,
  values: ReaderCertificateValues,
): Promise<ReaderCertificateRow> {
  const [row] = await db
    .insert(readerCertificates)
    .values({ ...values, source: 'imported', createdAt: values.now, updatedAt: values.now })
    .onConflictDoUpdate({
      target: readerCertificates.orgId,
      set: {
        publicJwk: values.publicJwk,
        certificateChain: values.certificateChain,
        source: 'imported',
        updatedAt: values.now,
      },
    })
    .returning();
  return row!;
}

/** A page of platform-issued reader chains (all organisations) after `afterOrgId`: the start-time re-issue walks them. */
export async function listPlatformReaderCertificates(
  db: VerifierDb,
  params: { afterOrgId?: string; limit: number },
): Promise<ReaderCertificateRow[]> {
  return db
    .select()
    .from(readerCertificates)
    .where(
      and(
        eq(readerCertificates.source, 'platform'),
        params.afterOrgId ? gt(readerCertificates.orgId, params.afterOrgId) : undefined,
      ),
    )
    .orderBy(asc(readerCertificates.orgId))
    .limit(params.limit);
}
