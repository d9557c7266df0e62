import { ErrorCode, type TrustListGetRequest } from '@tessera/contracts';
import { forbidden, isUuid, notFound, type Clock } from '@tessera/service-kit';
import { isActiveParticipant } from '../db/standing.js';
import { findTrustListHeader } from '../db/trust-list-header.js';
import { readTrustListContent } from '../db/trust-list-content.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemDisabled } from '../domain/errors.js';
import { nextUpdateOf } from '../domain/trust-list-payload.js';
import type { TrustListContentEntity } from '../domain/trust-list-content.js';

export interface GetTrustListSnapshotDeps {
  db: EcosystemDb;
  /** ECOSYSTEM_ENABLED: when false every request is refused with ECOSYSTEM_DISABLED. */
  enabled: boolean;
  /** The time the list is issued at; `nextUpdate` counts from it. */
  clock: Clock;
  /** TRUST_LIST_VALIDITY_SECONDS: `nextUpdate` lies this far ahead. */
  validitySeconds: number;
}

export interface TrustListSnapshotResult {
  ecosystemId: string;
  sequence: number;
  nextUpdate: Date;
  /** Undefined when the caller holds this sequence already. */
  entities?: TrustListContentEntity[];
}

/**
 * `ecosystem.v1.trust-list.get`: the registry as the verifier follows it. The same
 * content as the signed list (one read, `readTrustListContent`), unsigned: the bus is
 * inside the platform. With `orgId` the organisation must be the lead or an ACTIVE
 * member (403 NOT_A_MEMBER); `knownSequence` equal to the current one answers without
 * entities, and without reading them.
 */
export async function getTrustListSnapshot(
  deps: GetTrustListSnapshotDeps,
  input: TrustListGetRequest,
): Promise<TrustListSnapshotResult> {
  if (!deps.enabled) throw ecosystemDisabled();
  const notFoundError = () => notFound(`No ecosystem ${input.ecosystemId}.`, ErrorCode.ECOSYSTEM_NOT_FOUND);
  // The `uuid` format admits a `urn:uuid:` prefix that the uuid column would reject.
  const header = isUuid(input.ecosystemId) ? await findTrustListHeader(deps.db, input.ecosystemId) : undefined;
  if (!header) throw notFoundError();
  if (input.orgId !== undefined && !(await isActiveParticipant(deps.db, input.ecosystemId, input.orgId))) {
    throw forbidden(
      `Organisation ${input.orgId} is neither the lead nor an active member of this ecosystem.`,
      ErrorCode.NOT_A_MEMBER,
    );
  }
  const nextUpdate = nextUpdateOf(deps.clock(), deps.validitySeconds);
  if (input.knownSequence === header.sequence)
    return { ecosystemId: input.ecosystemId, sequence: header.sequence, nextUpdate };
  const content = await readTrustListContent(deps.db, input.ecosystemId);
  if (!content) throw notFoundError();
  return { ecosystemId: input.ecosystemId, sequence: content.sequence, nextUpdate, entities: content.entities };
}
