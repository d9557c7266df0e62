// Intent notices and their versions. Queries name the intent; callers are authorised
// for the intent's ecosystem first.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { IntentNoticeBody } from '@tessera/contracts';
import { intentNotices, intentNoticeVersions, type IntentNoticeRow } from './schema.js';
import { returnUniqueConflicts, type Conflict, type EcosystemDb } from './types.js';

export interface NoticeVersionView {
  id: string;
  intentId: string;
  version: number;
  body: IntentNoticeBody;
  createdBy: string;
  createdAt: Date;
}

/** The notice of an intent at version 1, or `{ conflict: 'exists' }` when the intent has one. */
export async function insertNotice(db: EcosystemDb, intentId: string): Promise<IntentNoticeRow | Conflict<'exists'>> {
  return returnUniqueConflicts(
    async () => {
      const [notice] = await db
        .insert(intentNotices)
        .values({ id: randomUUID(), intentId, currentVersion: 1 })
        .returning();
      return notice!;
    },
    { intent_notices_intent_uq: 'exists' },
  );
}

/**
 * Bumps the notice's version counter and returns the notice with its new version,
 * undefined when the intent has no notice. The UPDATE's row lock makes simultaneous
 * updates take turns, so each gets a distinct version.
 */
export async function nextNoticeVersion(db: EcosystemDb, intentId: string): Promise<IntentNoticeRow | undefined> {
  const [notice] = await db
    .update(intentNotices)
    .set({ currentVersion: sql`${intentNotices.currentVersion} + 1` })
    .where(eq(intentNotices.intentId, intentId))
    .returning();
  return notice;
}

/** Stores the body of one version of a notice. */
export async function insertNoticeVersion(
  db: EcosystemDb,
  input: { notice: IntentNoticeRow; body: IntentNoticeBody; userId: string },
): Promise<NoticeVersionView> {
  const [version] = await db
    .insert(intentNoticeVersions)
    .values({
      noticeId: input.notice.id,
      version: input.notice.currentVersion,
      body: input.body,
      createdBy: input.userId,
    })
    .returning();
  return {
    id: input.notice.id,
    intentId: input.notice.intentId,
    version: input.notice.currentVersion,
    body: input.body,
    createdBy: version!.createdBy,
    createdAt: version!.createdAt,
  };
}

/** The latest version of the intent's notice, or version `version`. */
export async function findNoticeVersion(
  db: EcosystemDb,
  intentId: string,
  version?: number,
): Promise<NoticeVersionView | undefined> {
  const [row] = await db
    .select({ notice: intentNotices, version: intentNoticeVersions })
    .from(intentNotices)
    .innerJoin(intentNoticeVersions, eq(intentNoticeVersions.noticeId, intentNotices.id))
    .where(
      and(
        eq(intentNotices.intentId, intentId),
        eq(intentNoticeVersions.version, version ?? intentNotices.currentVersion),
      ),
    );
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
