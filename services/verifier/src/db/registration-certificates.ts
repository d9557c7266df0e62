// Registration certificates of verifiers. Tenant scoping: every query takes `orgId`, except the
// expiry job's (`claimRegistrationCertificateExpiryWarnings`, `countRegistrationCertificatesByEnd`),
// which is platform work over every organisation.
import { and, count, eq, gt, lte } from 'drizzle-orm';
import { runRawStatement } from '@tessera/service-kit';
import { registrationCertificates, type RegistrationCertificateRow } from './schema.js';
import type { VerifierDb } from './types.js';

export type RegistrationCertificateValues = Omit<
  typeof registrationCertificates.$inferInsert,
  'createdAt' | 'updatedAt' | 'expiryWarnedAt'
> & { now: Date };

/** Stores the verifier's registration certificate, replacing the one it had (its expiry warning starts over). */
export async function upsertRegistrationCertificate(
  db: VerifierDb,
  values: RegistrationCertificateValues,
): Promise<RegistrationCertificateRow> {
  const { now, ...columns } = values;
  const [row] = await db
    .insert(registrationCertificates)
    .values({ ...columns, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: registrationCertificates.verifierRef,
      set: {
        jwt: columns.jwt,
        summary: columns.summary,
        relyingPartyIdentifier: columns.relyingPartyIdentifier,
        notBefore: columns.notBefore,
        notAfter: columns.notAfter,
        expiryWarnedAt: null,
        updatedAt: now,
      },
    })
    .returning();
  return row!;
}

export async function findRegistrationCertificate(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string },
): Promise<RegistrationCertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(registrationCertificates)
    .where(
      and(
        eq(registrationCertificates.orgId, params.orgId),
        eq(registrationCertificates.verifierRef, params.verifierRef),
      ),
    );
  return row;
}

/** Deletes the verifier's registration certificate; answers it, or undefined when it had none. */
export async function deleteRegistrationCertificateRow(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string },
): Promise<RegistrationCertificateRow | undefined> {
  const [row] = await db
    .delete(registrationCertificates)
    .where(
      and(
        eq(registrationCertificates.orgId, params.orgId),
        eq(registrationCertificates.verifierRef, params.verifierRef),
      ),
    )
    .returning();
  return row;
}

/** A certificate the expiry warning is about, with the verifier it belongs to. */
export interface ExpiringRegistrationCertificate {
  orgId: string;
  verifierId: string;
  relyingPartyIdentifier: string;
  notAfter: Date;
}

/**
 * $1 ends by, $2 now, $3 limit. Marks as warned, and answers, the certificates ending by $1
 * that nobody warned about yet, oldest end first; SKIP LOCKED and the condition on
 * `expiry_warned_at` let one replica claim each, so each is logged once.
 */
const CLAIM_EXPIRY_WARNINGS = `
  with due as (
    select verifier_ref from "verifier"."registration_certificates"
    where expiry_warned_at is null and not_after <= $1::timestamptz
    order by not_after
    limit $3
    for update skip locked
  )
  update "verifier"."registration_certificates" c
  set expiry_warned_at = $2::timestamptz
  from due, "verifier"."verifiers" v
  where c.verifier_ref = due.verifier_ref and v.id = c.verifier_ref
  returning c.org_id, v.verifier_id, c.relying_party_identifier, c.not_after`;

export async function claimRegistrationCertificateExpiryWarnings(
  db: VerifierDb,
  params: { endsBy: Date; now: Date; limit: number },
): Promise<ExpiringRegistrationCertificate[]> {
  const rows = await runRawStatement<{
    org_id: string;
    verifier_id: string;
    relying_party_identifier: string;
    not_after: Date | string;
  }>(db, CLAIM_EXPIRY_WARNINGS, [params.endsBy.toISOString(), params.now.toISOString(), params.limit]);
  return rows.map((row) => ({
    orgId: row.org_id,
    verifierId: row.verifier_id,
    relyingPartyIdentifier: row.relying_party_identifier,
    notAfter: new Date(row.not_after),
  }));
}

/** How many certificates have ended by `now`, and how many end within (`now`, `endsBy`]. */
export async function countRegistrationCertificatesByEnd(
  db: VerifierDb,
  params: { now: Date; endsBy: Date },
): Promise<{ expired: number; expiring: number }> {
  const [expired] = await db
    .select({ value: count() })
    .from(registrationCertificates)
    .where(lte(registrationCertificates.notAfter, params.now));
  const [expiring] = await db
    .select({ value: count() })
    .from(registrationCertificates)
    .where(
      and(gt(registrationCertificates.notAfter, params.now), lte(registrationCertificates.notAfter, params.endsBy)),
    );
  return { expired: expired?.value ?? 0, expiring: expiring?.value ?? 0 };
}
