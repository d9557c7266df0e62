// What PostgreSQL holds, read for the tests that assert what is stored at rest: that a
// secret or a claim is sealed, that only a hash is kept, that a refused request or
// another organisation changed nothing, that an expiry was persisted (not only read as
// such), that an acknowledged write survived the process. These are properties of the
// rows themselves, which no use case reports, so this fixture reads the verifier's
// tables (src/db/schema.ts); tests arrange data through the use cases or the API.
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '@tessera/service-kit';
import {
  pendingSigningKeys,
  platformSettings,
  presentationReads,
  presentationResults,
  presentationSessions,
  readerCertificates,
  registrationCertificates,
  signingKeys,
  trustAnchors,
  verificationTemplates,
  verifiers,
  webhookDeliveries,
  webhooks,
  type VerifierDbSchema,
} from '../../src/db/schema.js';

type VerifierDatabase = Pick<Database<VerifierDbSchema>, 'db'>;

/** The stored row of session `id`, or undefined. */
export async function storedSession(database: VerifierDatabase, id: string) {
  const [row] = await database.db.select().from(presentationSessions).where(eq(presentationSessions.id, id));
  return row;
}

/** The ids of `ids` that have a stored session. */
export async function storedSessionIds(database: VerifierDatabase, ids: string[]): Promise<string[]> {
  const rows = await database.db
    .select({ id: presentationSessions.id })
    .from(presentationSessions)
    .where(inArray(presentationSessions.id, ids));
  return rows.map((row) => row.id);
}

/** The stored results of session `id` (one at most once settled). */
export function storedResults(database: VerifierDatabase, sessionId: string) {
  return database.db.select().from(presentationResults).where(eq(presentationResults.sessionId, sessionId));
}

/** Every stored result, of any session. */
export function allStoredResults(database: VerifierDatabase) {
  return database.db.select().from(presentationResults);
}

/** The read records of session `id`. */
export function storedReads(database: VerifierDatabase, sessionId: string) {
  return database.db.select().from(presentationReads).where(eq(presentationReads.sessionId, sessionId));
}

/** Every stored webhook. */
export function storedWebhooks(database: VerifierDatabase) {
  return database.db.select().from(webhooks);
}

/** Every row of organisation `orgId` in every organisation-scoped table, as JSON (to compare before and after). */
export async function organisationRows(database: VerifierDatabase, orgId: string): Promise<string> {
  const { db } = database;
  return JSON.stringify([
    await db.select().from(verifiers).where(eq(verifiers.orgId, orgId)),
    await db.select().from(verificationTemplates).where(eq(verificationTemplates.orgId, orgId)),
    await db.select().from(presentationSessions).where(eq(presentationSessions.orgId, orgId)),
    await db.select().from(presentationResults).where(eq(presentationResults.orgId, orgId)),
    await db.select().from(presentationReads).where(eq(presentationReads.orgId, orgId)),
    await db.select().from(trustAnchors).where(eq(trustAnchors.orgId, orgId)),
    await db.select().from(signingKeys).where(eq(signingKeys.orgId, orgId)),
    await db.select().from(readerCertificates).where(eq(readerCertificates.orgId, orgId)),
    await db.select().from(pendingSigningKeys).where(eq(pendingSigningKeys.orgId, orgId)),
    await db.select().from(registrationCertificates).where(eq(registrationCertificates.orgId, orgId)),
    await db.select().from(webhooks).where(eq(webhooks.orgId, orgId)),
    await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, orgId)),
  ]);
}

/** The stored verifiers of organisation `orgId`. */
export function storedVerifiers(database: VerifierDatabase, orgId: string) {
  return database.db.select().from(verifiers).where(eq(verifiers.orgId, orgId));
}

/** The stored trust anchors of organisation `orgId`. */
export function storedTrustAnchors(database: VerifierDatabase, orgId: string) {
  return database.db.select().from(trustAnchors).where(eq(trustAnchors.orgId, orgId));
}

/** The stored signing keys, of organisation `orgId` when given. */
export function storedSigningKeys(database: VerifierDatabase, orgId?: string) {
  const all = database.db.select().from(signingKeys);
  return orgId === undefined ? all : all.where(eq(signingKeys.orgId, orgId));
}

/** The stored reader-authentication chain of organisation `orgId`, or undefined. */
export async function storedReaderCertificate(database: VerifierDatabase, orgId: string) {
  const [row] = await database.db.select().from(readerCertificates).where(eq(readerCertificates.orgId, orgId));
  return row;
}

/** The stored keys of pending certificate signing requests of organisation `orgId`. */
export function storedPendingSigningKeys(database: VerifierDatabase, orgId: string) {
  return database.db.select().from(pendingSigningKeys).where(eq(pendingSigningKeys.orgId, orgId));
}

/** The stored registration certificates of organisation `orgId`. */
export function storedRegistrationCertificates(database: VerifierDatabase, orgId: string) {
  return database.db.select().from(registrationCertificates).where(eq(registrationCertificates.orgId, orgId));
}

/** Every session, of any organisation. */
export function allStoredSessions(database: VerifierDatabase) {
  return database.db.select().from(presentationSessions);
}

/** Every platform setting (the key check, the platform CA, markers). */
export function storedPlatformSettings(database: VerifierDatabase) {
  return database.db.select().from(platformSettings);
}
