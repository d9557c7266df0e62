import { Type, type Static, type TSchema } from 'typebox';

/** Subjects of the inter-service contract. Owned by the answering service; versioned. */
export const Subject = {
  INTENT_RESOLVE: 'ecosystem.v1.intent.resolve',
  VERIFICATION_TEMPLATE_GET: 'verifier.v1.verification-template.get',
  SESSION_UPDATED: 'verifier.v1.session.updated',
  ORGANISATION_UPSERTED: 'platform.v1.organisation.upserted',
  TRUST_LIST_GET: 'ecosystem.v1.trust-list.get',
  TRUST_LIST_CHANGED: 'ecosystem.v1.trust-list.changed',
} as const;

/** Queue groups: responders of one service share load across replicas. */
export const QueueGroup = {
  ECOSYSTEM: 'ecosystem',
  VERIFIER: 'verifier',
} as const;

export const NatsErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
});
export type NatsError = Static<typeof NatsErrorSchema>;

/** Reply envelope: `{ ok: true, data }` or `{ ok: false, error }`. */
export function NatsReply<T extends TSchema>(data: T) {
  return Type.Union([
    Type.Object({ ok: Type.Literal(true), data }),
    Type.Object({ ok: Type.Literal(false), error: NatsErrorSchema }),
  ]);
}
export type NatsReplyOf<T> = { ok: true; data: T } | { ok: false; error: NatsError };
