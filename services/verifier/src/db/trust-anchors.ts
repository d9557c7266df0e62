// Trust anchor queries. Tenant scoping: every query takes `orgId` and filters on it.
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { preparedFor } from '@tessera/service-kit';
import { trustAnchors, type TrustAnchorRow } from './schema.js';
import type { VerifierDb } from './types.js';

export type NewTrustAnchor = typeof trustAnchors.$inferInsert;

/** Inserts the anchor; undefined when the organisation already has one with this fingerprint. */
export async function insertTrustAnchor(db: VerifierDb, values: NewTrustAnchor): Promise<TrustAnchorRow | undefined> {
  const [row] = await db
    .insert(trustAnchors)
    .values(values)
    .onConflictDoNothing({ target: [trustAnchors.orgId, trustAnchors.fingerprint] })
    .returning();
  return row;
}

/** The anchor the organisation has with this fingerprint, whatever its purpose (the conflict's message names it). */
export async function findTrustAnchorByFingerprint(
  db: VerifierDb,
  params: { orgId: string; fingerprint: string },
): Promise<TrustAnchorRow | undefined> {
  const [row] = await db
    .select()
    .from(trustAnchors)
    .where(and(eq(trustAnchors.orgId, params.orgId), eq(trustAnchors.fingerprint, params.fingerprint)));
  return row;
}

export async function listTrustAnchors(
  db: VerifierDb,
  params: { orgId: string; limit: number; offset: number; purpose?: string },
): Promise<{ rows: TrustAnchorRow[]; total: number }> {
  const where = and(
    eq(trustAnchors.orgId, params.orgId),
    params.purpose ? eq(trustAnchors.purpose, params.purpose) : undefined,
  );
  const rows = await db
    .select()
    .from(trustAnchors)
    .where(where)
    .orderBy(desc(trustAnchors.createdAt), desc(trustAnchors.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await db.select({ value: count() }).from(trustAnchors).where(where);
  return { rows, total: total?.value ?? 0 };
}

/** Deletes the anchor; returns it, or undefined when the organisation has none with this id. */
export async function deleteTrustAnchor(
  db: VerifierDb,
  params: { orgId: string; id: string },
): Promise<TrustAnchorRow | undefined> {
  const [row] = await db
    .delete(trustAnchors)
    .where(and(eq(trustAnchors.orgId, params.orgId), eq(trustAnchors.id, params.id)))
    .returning();
  return row;
}

/** One anchor as verification uses it: the certificate or the DID, and its type limit (undefined = any type). */
export interface TrustAnchorMaterial {
  certificates: Array<{ certificatePem: string; credentialTypes?: string[] }>;
  dids: Array<{ did: string; credentialTypes?: string[] }>;
}

/** All of an organisation's issuer anchors as verification uses them, read fresh each time (no cache to go stale). */
export async function readTrustAnchorMaterial(db: VerifierDb, orgId: string): Promise<TrustAnchorMaterial> {
  return toTrustAnchorMaterial(await selectTrustAnchorMaterial(db).execute({ orgId }));
}

/** An anchor row as verification reads it. */
export interface TrustAnchorMaterialRow {
  certificatePem: string | null;
  did: string | null;
  credentialTypes: string[] | null;
}

/**
 * The anchors of the organisation `orgId` names (an SQL expression of the outer
 * statement), as one JSON array, for a statement that reads them beside
 * something else. Every column is qualified by an alias of its own: the query
 * builder writes bare column names in an UPDATE's RETURNING list, where
 * `org_id = org_id` would match every organisation's anchors.
 */
export function trustAnchorMaterialOf(orgId: SQL) {
  return sql<
    TrustAnchorMaterialRow[]
  >`(select coalesce(json_agg(json_build_object('certificatePem', anchor.certificate_pem, 'did', anchor.did, 'credentialTypes', anchor.credential_types)), '[]'::json) from ${trustAnchors} as anchor where anchor.org_id = ${orgId} and anchor.purpose = 'issuer')`;
}

export function toTrustAnchorMaterial(rows: TrustAnchorMaterialRow[]): TrustAnchorMaterial {
  const limit = (types: string[] | null) => (types ? { credentialTypes: types } : {});
  return {
    certificates: rows.flatMap((row) =>
      row.certificatePem ? [{ certificatePem: row.certificatePem, ...limit(row.credentialTypes) }] : [],
    ),
    dids: rows.flatMap((row) => (row.did ? [{ did: row.did, ...limit(row.credentialTypes) }] : [])),
  };
}

/** Runs for every verification: prepared once per database handle. */
const selectTrustAnchorMaterial = preparedFor((db: VerifierDb) =>
  db
    .select({
      certificatePem: trustAnchors.certificatePem,
      did: trustAnchors.did,
      credentialTypes: trustAnchors.credentialTypes,
    })
    .from(trustAnchors)
    .where(and(eq(trustAnchors.orgId, sql.placeholder('orgId')), eq(trustAnchors.purpose, 'issuer')))
    .prepare('read_trust_anchor_material'),
);

/** The organisation's registrar anchors (PEM): what its verifiers' registration certificates must validate to. */
export async function listRegistrarAnchorPems(db: VerifierDb, params: { orgId: string }): Promise<string[]> {
  const rows = await db
    .select({ certificatePem: trustAnchors.certificatePem })
    .from(trustAnchors)
    .where(and(eq(trustAnchors.orgId, params.orgId), eq(trustAnchors.purpose, 'registrar')));
  return rows.flatMap((row) => (row.certificatePem ? [row.certificatePem] : []));
}
