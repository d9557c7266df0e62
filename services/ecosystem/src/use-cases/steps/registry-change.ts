// A step of every trust registry change: the lock, the sequence, the history row, and
// the change event after commit (README, Trust registry: Sequence and history).
import { trustListChangedEvent, type TrustedEntityChange } from '@tessera/contracts';
import { publishEvent, type Clock, type Logger, type MessageBus } from '@tessera/service-kit';
import { advanceTrustListSequence, lockTrustRegistry } from '../../db/trust-list-sequence.js';
import { appendHistory } from '../../db/trusted-entity-history.js';
import type { EcosystemDb } from '../../db/types.js';
import { ecosystemNotFound } from '../../domain/errors.js';

export interface RegistryChangeDeps {
  db: EcosystemDb;
  bus: MessageBus;
  logger: Logger;
  /** When a change happens: its history entry, the timestamps it writes, the certificates it checks. */
  clock: Clock;
}

/** The history entry a change appends. */
export interface RegistryHistoryEntry {
  entityId: string;
  change: TrustedEntityChange;
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
  reason: string | null;
}

export interface RegistryChangeOutcome<T> {
  result: T;
  /** Absent when the work found nothing to change: it must then have written nothing. */
  history?: RegistryHistoryEntry;
}

export interface RegistryChangeInput {
  ecosystemId: string;
  /** The token subject of the user making the change. */
  actor: string;
  at: Date;
}

/**
 * Runs one registry change in one transaction: takes the ecosystem's registry lock
 * first (so `work` reads the state every earlier change committed, and concurrent
 * changes of the ecosystem queue up), runs `work`, then — when it changed something —
 * advances the trust-list sequence and appends one history row carrying it. After the
 * commit it publishes `ecosystem.v1.trust-list.changed`; a failed publish is logged,
 * never the request's failure (readers also poll). Answers `work`'s result and the new
 * sequence (undefined when nothing changed).
 */
export async function changeTrustRegistry<T>(
  deps: RegistryChangeDeps,
  input: RegistryChangeInput,
  work: (tx: EcosystemDb) => Promise<RegistryChangeOutcome<T>>,
): Promise<{ result: T; sequence: number | undefined }> {
  const committed = await deps.db.transaction(async (tx) => {
    if (!(await lockTrustRegistry(tx, input.ecosystemId))) throw ecosystemNotFound();
    const outcome = await work(tx);
    if (!outcome.history) return { result: outcome.result, sequence: undefined };
    const sequence = await advanceTrustListSequence(tx, input.ecosystemId, input.at);
    await appendHistory(tx, {
      ...outcome.history,
      ecosystemId: input.ecosystemId,
      sequence,
      actor: input.actor,
      at: input.at,
    });
    return { result: outcome.result, sequence };
  });
  if (committed.sequence !== undefined) publishTrustListChanged(deps, input.ecosystemId, committed.sequence);
  return committed;
}

function publishTrustListChanged(deps: RegistryChangeDeps, ecosystemId: string, sequence: number): void {
  try {
    publishEvent(deps.bus, trustListChangedEvent, { ecosystemId, sequence });
  } catch (error) {
    deps.logger.warn(
      { err: error, ecosystemId, sequence },
      'trust-list change event not published; readers catch up by polling',
    );
  }
}
