// The append-only history of an ecosystem's trust registry. Scoped by ecosystem id.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { TrustedEntityChange } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { trustedEntityHistory, type TrustedEntityHistoryRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface AppendHistoryInput {
  ecosystemId: string;
  entityId: string;
  /** The trust-list sequence this change produced. */
  sequence: number;
  change: TrustedEntityChange;
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
  reason: string | null;
  actor: string;
  at: Date;
}

export async function appendHistory(db: EcosystemDb, input: AppendHistoryInput): Promise<TrustedEntityHistoryRow> {
  const [row] = await db
    .insert(trustedEntityHistory)
    .values({ id: randomUUID(), ...input })
    .returning();
  return row!;
}

/** A page of one entity's history, oldest first (by sequence). */
export async function listHistory(
  db: EcosystemDb,
  ecosystemId: string,
  entityId: string,
  window: PageWindow,
): Promise<{ rows: TrustedEntityHistoryRow[]; total: number }> {
  const where = and(eq(trustedEntityHistory.ecosystemId, ecosystemId), eq(trustedEntityHistory.entityId, entityId));
  const [[totals], rows] = await Promise.all([
    db.select({ total: count() }).from(trustedEntityHistory).where(where),
    db
      .select()
      .from(trustedEntityHistory)
      .where(where)
      .orderBy(asc(trustedEntityHistory.sequence))
      .limit(window.pageSize)
      .offset(window.offset),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
