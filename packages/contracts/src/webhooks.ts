import { Type, type Static } from 'typebox';
import { SessionStateSchema } from './presentation-sessions.js';

/**
 * A verifier's webhook (issue 14): the relying party is told, by a signed POST
 * (Standard Webhooks), when a session of the verifier ends. At least once: the
 * event is written in the statement that changes the session and retried until
 * the receiver answers 2xx or the retry period ends.
 */

/** What a webhook can subscribe to: a session verified, failed, or expired unanswered. */
export const WEBHOOK_EVENT_TYPES = ['presentation.verified', 'presentation.failed', 'presentation.expired'] as const;
export const WebhookEventTypeSchema = Type.Union([
  Type.Literal('presentation.verified'),
  Type.Literal('presentation.failed'),
  Type.Literal('presentation.expired'),
]);
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `PUT verifier/{verifierId}/webhook`: the target and the events it wants (at least one, no repeats). */
export const PutWebhookBodySchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https URL the events are POSTed to (no user info, no fragment)',
    }),
    events: Type.Array(WebhookEventTypeSchema, {
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);
export type PutWebhookBody = Static<typeof PutWebhookBodySchema>;

/** A webhook as `GET` answers it: never the secret. */
export const WebhookSchema = Type.Object({
  verifierId: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEventTypeSchema),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Webhook = Static<typeof WebhookSchema>;

/** The answer of `PUT` and `rotate-secret`: the webhook and its signing secret (`whsec_` + base64 of 32 bytes). */
export const WebhookWithSecretSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({
    description: 'Standard Webhooks secret: `whsec_` + base64 of 32 random bytes; verify `webhook-signature` with it',
  }),
});
export type WebhookWithSecret = Static<typeof WebhookWithSecretSchema>;

/** The JSON body POSTed to the webhook: what happened to which session (never claims; read them with a token). */
export const WebhookEventSchema = Type.Object({
  type: WebhookEventTypeSchema,
  /** The event id, also sent as `webhook-id`: the same on every attempt and redelivery (receivers deduplicate on it). */
  id: Type.String({ format: 'uuid' }),
  sessionId: Type.String({ format: 'uuid' }),
  /** The organisation's identifier of the verifier (`publicVerifierId` of the session). */
  verifierId: Type.String(),
  state: SessionStateSchema,
  occurredAt: Type.String({ format: 'date-time' }),
});
export type WebhookEvent = Static<typeof WebhookEventSchema>;

export const WebhookDeliveryStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatusSchema>;

/** One POST of a delivery: when, how long, and the HTTP status or the network error. */
export const WebhookDeliveryAttemptSchema = Type.Object({
  attemptedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Integer({ minimum: 0 }),
  /** The receiver's HTTP status, when it answered. */
  statusCode: Type.Optional(Type.Integer()),
  /** Why no status came back (refused address, timeout, connection error). */
  error: Type.Optional(Type.String()),
  succeeded: Type.Boolean(),
});
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttemptSchema>;

/** A delivery of one event to the verifier's webhook, with its attempts (oldest first; the last 50). */
export const WebhookDeliverySchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the event id (`webhook-id`)' }),
  event: WebhookEventSchema,
  status: WebhookDeliveryStatusSchema,
  attemptCount: Type.Integer({ minimum: 0 }),
  createdAt: Type.String({ format: 'date-time' }),
  /** Pending deliveries: when the next attempt is due. */
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time' })),
  deliveredAt: Type.Optional(Type.String({ format: 'date-time' })),
  attempts: Type.Array(WebhookDeliveryAttemptSchema),
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;
