// Intent notices and their versions. Queries name the intent; callers are authorised
// for the intent's ecosystem first.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode, type IntentNoticeBody } from '@tessera/contracts';
import { conflict } from '@tessera/service-kit';
import { intentNotices, intentNoticeVersions } from './schema.js';
import { withConflicts, type EcoDb } from './db-types.js';

export interface NoticeVersionView {
  id: string;
  intentId: string;
  version: number;
  body: IntentNoticeBody;
  createdBy: string;
  createdAt: Date;
}

/** Creates the notice of an intent as version 1 (409 NOTICE_EXISTS when it has one). */
export async function createNotice(db: EcoDb, input: { intentId: string; body: IntentNoticeBody; userId: string }): Promise<NoticeVersionView> {
  return withConflicts(
    () =>
      db.transaction(async (tx) => {
        const [notice] = await tx.insert(intentNotices).values({ id: randomUUID(), intentId: input.intentId, currentVersion: 1 }).returning();
        const [version] = await tx.insert(intentNoticeVersions).values({ noticeId: notice!.id, version: 1, body: input.body, createdBy: input.userId }).returning();
        return { id: notice!.id, intentId: input.intentId, version: 1, body: input.body, createdBy: version!.createdBy, createdAt: version!.createdAt };
      }),
    { intent_notices_intent_uq: () => conflict(ErrorCode.NOTICE_EXISTS, 'This intent has a notice already: update it with PUT to issue a new version.') },
  );
}

/**
 * Stores version n+1. The version counter is bumped by an UPDATE, whose row lock
 * makes simultaneous updates take turns and get distinct versions. Undefined when
 * the intent has no notice.
 */
export async function addNoticeVersion(db: EcoDb, input: { intentId: string; body: IntentNoticeBody; userId: string }): Promise<NoticeVersionView | undefined> {
  return db.transaction(async (tx) => {
    const [notice] = await tx
      .update(intentNotices)
      .set({ currentVersion: sql`${intentNotices.currentVersion} + 1` })
      .where(eq(intentNotices.intentId, input.intentId))
      .returning();
    if (!notice) return undefined;
    const [version] = await tx
      .insert(intentNoticeVersions)
      .values({ noticeId: notice.id, version: notice.currentVersion, body: input.body, createdBy: input.userId })
      .returning();
    return { id: notice.id, intentId: input.intentId, version: notice.currentVersion, body: input.body, createdBy: version!.createdBy, createdAt: version!.createdAt };
  });
}

/** The latest version of the intent's notice, or version `version`. */
export async function findNoticeVersion(db: EcoDb, intentId: string, version?: number): Promise<NoticeVersionView | undefined> {
  const [row] = await db
    .select({ notice: intentNotices, version: intentNoticeVersions })
    .from(intentNotices)
    .innerJoin(intentNoticeVersions, eq(intentNoticeVersions.noticeId, intentNotices.id))
    .where(and(eq(intentNotices.intentId, intentId), eq(intentNoticeVersions.version, version ?? intentNotices.currentVersion)));
  if (!row) return undefined;
  return {
    id: row.notice.id,
    intentId,
    version: row.version.version,
    body: row.version.body as IntentNoticeBody,
    createdBy: row.version.createdBy,
    createdAt: row.version.createdAt,
  };
}
