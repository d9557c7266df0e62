import type { SessionState, WebhookEvent, WebhookEventType } from '@tessera/contracts';

/** The event a session's end is, by how it ended. */
export const WEBHOOK_EVENT_OF = {
  verified: 'presentation.verified',
  failed: 'presentation.failed',
  expired: 'presentation.expired',
} as const satisfies Record<string, WebhookEventType>;

/** What a delivery row keeps of its event. */
export interface StoredWebhookEvent {
  id: string;
  eventType: string;
  sessionId: string;
  publicVerifierId: string;
  sessionState: string;
  occurredAt: Date;
}

/** The event as the receiver gets it: `{ type, id, sessionId, verifierId, state, occurredAt }`, never claims. */
export function toWebhookEvent(stored: StoredWebhookEvent): WebhookEvent {
  return {
    type: stored.eventType as WebhookEventType,
    id: stored.id,
    sessionId: stored.sessionId,
    verifierId: stored.publicVerifierId,
    state: stored.sessionState as SessionState,
    occurredAt: stored.occurredAt.toISOString(),
  };
}

/**
 * The exact body POSTed (and signed): the event's JSON with its fields in the
 * documented order, so every attempt of one event sends the same bytes.
 */
export function webhookEventBody(stored: StoredWebhookEvent): string {
  return JSON.stringify(toWebhookEvent(stored));
}
