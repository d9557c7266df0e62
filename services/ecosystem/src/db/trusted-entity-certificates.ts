// Certificates of trusted entities. Every query names the ecosystem (and the entity where
// one is meant): a certificate id of another entity or ecosystem is not found.
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { ReadCertificate } from '../domain/read-certificate.js';
import type { CertificateHolder } from '../domain/vet-certificates.js';
import { trustedEntities, trustedEntityCertificates, type TrustedEntityCertificateRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface InsertCertificatesInput {
  ecosystemId: string;
  entityId: string;
  certificates: Array<ReadCertificate & { id: string }>;
  userId: string;
  at: Date;
}

export async function insertCertificates(
  db: EcosystemDb,
  input: InsertCertificatesInput,
): Promise<TrustedEntityCertificateRow[]> {
  if (input.certificates.length === 0) return [];
  return db
    .insert(trustedEntityCertificates)
    .values(
      input.certificates.map((c) => ({
        ...c,
        ecosystemId: input.ecosystemId,
        entityId: input.entityId,
        addedAt: input.at,
        addedBy: input.userId,
      })),
    )
    .returning();
}

/** Current (not retired) certificates of the given entities of the ecosystem, oldest first. */
export async function listCurrentCertificates(
  db: EcosystemDb,
  ecosystemId: string,
  entityIds: string[],
): Promise<TrustedEntityCertificateRow[]> {
  if (entityIds.length === 0) return [];
  return db
    .select()
    .from(trustedEntityCertificates)
    .where(
      and(
        eq(trustedEntityCertificates.ecosystemId, ecosystemId),
        inArray(trustedEntityCertificates.entityId, entityIds),
        isNull(trustedEntityCertificates.retiredAt),
      ),
    )
    .orderBy(asc(trustedEntityCertificates.addedAt), asc(trustedEntityCertificates.fingerprint));
}

export async function findCurrentCertificate(
  db: EcosystemDb,
  ecosystemId: string,
  entityId: string,
  certificateId: string,
): Promise<TrustedEntityCertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(trustedEntityCertificates)
    .where(
      and(
        eq(trustedEntityCertificates.ecosystemId, ecosystemId),
        eq(trustedEntityCertificates.entityId, entityId),
        eq(trustedEntityCertificates.id, certificateId),
        isNull(trustedEntityCertificates.retiredAt),
      ),
    );
  return row;
}

/** Which live (not withdrawn) entity of the ecosystem holds each of `fingerprints` as a current certificate. */
export async function findCertificateHolders(
  db: EcosystemDb,
  ecosystemId: string,
  fingerprints: string[],
): Promise<Map<string, CertificateHolder>> {
  if (fingerprints.length === 0) return new Map();
  const rows = await db
    .select({
      fingerprint: trustedEntityCertificates.fingerprint,
      entityId: trustedEntities.id,
      entityName: trustedEntities.name,
    })
    .from(trustedEntityCertificates)
    .innerJoin(trustedEntities, eq(trustedEntities.id, trustedEntityCertificates.entityId))
    .where(
      and(
        eq(trustedEntityCertificates.ecosystemId, ecosystemId),
        inArray(trustedEntityCertificates.fingerprint, fingerprints),
        isNull(trustedEntityCertificates.retiredAt),
        ne(trustedEntities.status, 'withdrawn'),
      ),
    );
  return new Map(rows.map((row) => [row.fingerprint, { entityId: row.entityId, entityName: row.entityName }]));
}

/** Marks a current certificate retired; the caller holds the registry lock and found it current. */
export async function retireCertificate(
  db: EcosystemDb,
  input: { ecosystemId: string; certificateId: string; userId: string; at: Date },
): Promise<TrustedEntityCertificateRow> {
  const [row] = await db
    .update(trustedEntityCertificates)
    .set({ retiredAt: input.at, retiredBy: input.userId })
    .where(
      and(
        eq(trustedEntityCertificates.ecosystemId, input.ecosystemId),
        eq(trustedEntityCertificates.id, input.certificateId),
        isNull(trustedEntityCertificates.retiredAt),
      ),
    )
    .returning();
  return row!;
}
