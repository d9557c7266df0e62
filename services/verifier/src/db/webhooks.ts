// Webhook queries. Tenant scoping: every query takes `orgId` and the verifier's
// row id (`verifierRef`) and filters on both.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { webhooks, type WebhookRow } from './schema.js';
import type { VerifierDb } from './types.js';

export async function findWebhook(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string },
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.orgId, params.orgId), eq(webhooks.verifierRef, params.verifierRef)));
  return row;
}

/**
 * Creates the verifier's webhook, or changes the `url` and `events` of the one it
 * has. `id` and `encryptedSecret` are used only when it is created: an existing
 * webhook keeps its id and secret. Answers the row as written and whether this
 * statement created it (`xmax = 0`: the row version was inserted, not updated).
 */
export async function upsertWebhook(
  db: VerifierDb,
  values: {
    id: string;
    orgId: string;
    verifierRef: string;
    url: string;
    events: string[];
    encryptedSecret: string;
    now: Date;
  },
): Promise<{ webhook: WebhookRow; created: boolean }> {
  const [row] = await db
    .insert(webhooks)
    .values({
      id: values.id,
      orgId: values.orgId,
      verifierRef: values.verifierRef,
      url: values.url,
      events: values.events,
      encryptedSecret: values.encryptedSecret,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoUpdate({
      target: webhooks.verifierRef,
      set: { url: values.url, events: values.events, updatedAt: values.now },
      // The verifier row id is unique across organisations; the condition keeps the write in the tenant anyway.
      setWhere: eq(webhooks.orgId, values.orgId),
    })
    .returning({ ...getTableColumns(webhooks), created: sql<boolean>`(xmax = 0)` });
  if (!row) throw new Error('the webhook was neither inserted nor updated');
  const { created, ...webhook } = row;
  return { webhook, created };
}

/**
 * Changes the `events` of the verifier's webhook only while its `url` is `url`
 * (one conditional statement, so a URL changed meanwhile is not confirmed);
 * undefined when it has no webhook or another URL.
 */
export async function changeWebhookEvents(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string; url: string; events: string[]; now: Date },
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ events: params.events, updatedAt: params.now })
    .where(
      and(eq(webhooks.orgId, params.orgId), eq(webhooks.verifierRef, params.verifierRef), eq(webhooks.url, params.url)),
    )
    .returning();
  return row;
}

/** Replaces the secret of webhook `id`; undefined when it is gone. */
export async function replaceWebhookSecret(
  db: VerifierDb,
  params: { orgId: string; id: string; encryptedSecret: string; now: Date },
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ encryptedSecret: params.encryptedSecret, updatedAt: params.now })
    .where(and(eq(webhooks.orgId, params.orgId), eq(webhooks.id, params.id)))
    .returning();
  return row;
}

/** Deletes the verifier's webhook and, by cascade, its deliveries; answers what was deleted. */
export async function deleteWebhookRow(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string },
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .delete(webhooks)
    .where(and(eq(webhooks.orgId, params.orgId), eq(webhooks.verifierRef, params.verifierRef)))
    .returning();
  return row;
}
