import type { TrustedEntityStatus, TrustListCertificate, TrustListEntity, TrustPolicy } from '@tessera/contracts';

/**
 * Everything the signed trust list (ETSI TS 119 602 JSON binding) and the
 * `ecosystem.v1.trust-list.get` reply are built from, read in one consistent
 * snapshot (one transaction) by `db/trust-list-content.ts`.
 */
export interface TrustListContent {
  ecosystem: { id: string; name: string };
  /** The lead organisation: the list's scheme operator. */
  lead: { orgId: string; name: string };
  /** Incremented by every registry change of this ecosystem; 0 before the first. */
  sequence: number;
  /** When `sequence` last changed (the ecosystem's creation before the first change). */
  sequenceChangedAt: Date;
  /** The lead made the list readable without a token. */
  public: boolean;
  policy: TrustPolicy;
  entities: TrustListContentEntity[];
}

export interface TrustListContentEntity extends TrustListEntity {
  /** Current (not retired) certificates, oldest first. */
  certificates: TrustListContentCertificate[];
  informationUri: string | null;
  /** When the current status began. */
  statusStartingTime: Date;
  /** Earlier statuses, newest first: each with when it began (ETSI ServiceHistory). */
  statusHistory: Array<{ status: TrustedEntityStatus; startingTime: Date }>;
}

/** A current certificate with its subject (RFC 4514 string) for lists that name it (ETSI X509SubjectName). */
export interface TrustListContentCertificate extends TrustListCertificate {
  subject: string;
}
