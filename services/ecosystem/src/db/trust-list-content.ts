// The trust registry of one ecosystem as the signed list and `ecosystem.v1.trust-list.get`
// need it. Scoped to one ecosystem; the callers decide who may read it.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TrustedEntityStatus } from '@tessera/contracts';
import type {
  TrustListContent,
  TrustListContentCertificate,
  TrustListContentEntity,
} from '../domain/trust-list-content.js';
import {
  ecosystems,
  memberships,
  organisations,
  trustedEntities,
  trustedEntityCertificates,
  trustedEntityHistory,
  type TrustedEntityCertificateRow,
} from './schema.js';
import type { EcosystemDb } from './types.js';

/**
 * The ecosystem's registry, or undefined when there is no such ecosystem. Read in one
 * REPEATABLE READ transaction: every part is as of one instant, so `sequence` names
 * exactly the entities, certificates and statuses returned (a change commits its
 * sequence and its rows together). Entities in creation order, current (not retired)
 * certificates only, each entity's earlier statuses from the history log.
 */
export async function readTrustListContent(
  db: EcosystemDb,
  ecosystemId: string,
): Promise<TrustListContent | undefined> {
  return db.transaction(
    async (tx) => {
      const [ecosystem] = await tx
        .select({
          id: ecosystems.id,
          name: ecosystems.name,
          createdAt: ecosystems.createdAt,
          sequence: ecosystems.trustListSequence,
          sequenceChangedAt: ecosystems.trustListSequenceChangedAt,
          public: ecosystems.trustListPublic,
          policy: ecosystems.trustPolicy,
          leadOrgId: organisations.id,
          leadName: organisations.name,
        })
        .from(ecosystems)
        .innerJoin(memberships, and(eq(memberships.ecosystemId, ecosystems.id), eq(memberships.role, 'Ecosystem Lead')))
        .innerJoin(organisations, eq(organisations.id, memberships.orgId))
        .where(eq(ecosystems.id, ecosystemId));
      if (!ecosystem) return undefined;
      const entities = await tx
        .select()
        .from(trustedEntities)
        .where(eq(trustedEntities.ecosystemId, ecosystemId))
        .orderBy(asc(trustedEntities.createdAt), asc(trustedEntities.id));
      const certificates = await tx
        .select()
        .from(trustedEntityCertificates)
        .where(and(eq(trustedEntityCertificates.ecosystemId, ecosystemId), isNull(trustedEntityCertificates.retiredAt)))
        .orderBy(asc(trustedEntityCertificates.addedAt), asc(trustedEntityCertificates.fingerprint));
      // Each status an entity had, newest first: the one it was created with and every change since.
      const statusPeriods = await tx
        .select({
          entityId: trustedEntityHistory.entityId,
          status: sql<TrustedEntityStatus>`${trustedEntityHistory.to} ->> 'status'`,
          at: trustedEntityHistory.at,
        })
        .from(trustedEntityHistory)
        .where(
          and(
            eq(trustedEntityHistory.ecosystemId, ecosystemId),
            inArray(trustedEntityHistory.change, ['created', 'status-changed']),
          ),
        )
        .orderBy(desc(trustedEntityHistory.sequence));

      const certificatesOf = groupBy(certificates, (c) => c.entityId);
      const periodsOf = groupBy(statusPeriods, (p) => p.entityId);
      return {
        ecosystem: { id: ecosystem.id, name: ecosystem.name },
        lead: { orgId: ecosystem.leadOrgId, name: ecosystem.leadName },
        sequence: ecosystem.sequence,
        sequenceChangedAt: ecosystem.sequenceChangedAt ?? ecosystem.createdAt,
        public: ecosystem.public,
        policy: ecosystem.policy,
        entities: entities.map((entity): TrustListContentEntity => ({
          id: entity.id,
          name: entity.name,
          role: entity.role,
          orgId: entity.orgId,
          status: entity.status,
          allowedCredentialTypes: entity.allowedCredentialTypes,
          certificates: (certificatesOf.get(entity.id) ?? []).map(toContentCertificate),
          informationUri: entity.informationUri,
          statusStartingTime: entity.statusChangedAt,
          // The newest period is the current status; the ones before it are its history.
          statusHistory: (periodsOf.get(entity.id) ?? [])
            .slice(1)
            .map((period) => ({ status: period.status, startingTime: period.at })),
        })),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

function toContentCertificate(row: TrustedEntityCertificateRow): TrustListContentCertificate {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    kind: row.kind,
    ski: row.ski,
    aki: row.aki,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    pem: row.pem,
    subject: row.subject,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
