import { Type, type Static } from 'typebox';
import { IntentNoticeSchema } from './intent-notice.js';
import { TrustPolicySchema } from './trust-registry.js';
import { SessionStateSchema } from './presentation-sessions.js';
import { SignerOptionSchema } from './verifier.js';

/** `ecosystem.v1.intent.resolve` request (answered by the ecosystem service). */
export const IntentResolveRequestSchema = Type.Object(
  {
    ecosystemId: Type.String({ format: 'uuid' }),
    intent: Type.String({ minLength: 1, maxLength: 200 }),
    orgId: Type.String({ minLength: 1, maxLength: 200 }),
    role: Type.Literal('verifier'),
  },
  { additionalProperties: false },
);
export type IntentResolveRequest = Static<typeof IntentResolveRequestSchema>;

export const IntentResolveResultSchema = Type.Object({
  intentId: Type.String(),
  intent: Type.String(),
  templateId: Type.String(),
  scope: Type.Union([Type.Literal('organisation'), Type.Literal('ecosystem')]),
  notice: Type.Optional(IntentNoticeSchema),
  /** The ecosystem's trust policy (absent from older ecosystem services: `organisation`). */
  trustPolicy: Type.Optional(TrustPolicySchema),
});
export type IntentResolveResult = Static<typeof IntentResolveResultSchema>;

/** `verifier.v1.verification-template.get` request (answered by the verifier service). */
export const VerificationTemplateGetRequestSchema = Type.Object(
  { templateId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type VerificationTemplateGetRequest = Static<typeof VerificationTemplateGetRequestSchema>;

export const VerificationTemplateSummarySchema = Type.Object({
  id: Type.String(),
  orgId: Type.String(),
  name: Type.String(),
  signerOption: SignerOptionSchema,
});
export type VerificationTemplateSummary = Static<typeof VerificationTemplateSummarySchema>;

/** `verifier.v1.session.updated` event payload. */
export const SessionUpdatedEventSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  orgId: Type.String({ minLength: 1, maxLength: 200 }),
  state: SessionStateSchema,
});
export type SessionUpdatedEvent = Static<typeof SessionUpdatedEventSchema>;

/** `platform.v1.organisation.upserted` event, published by the platform's organisation service. */
export const OrganisationUpsertedEventSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  ownerUserId: Type.String({ minLength: 1, maxLength: 200 }),
  ownerEmail: Type.String({ format: 'email', maxLength: 320 }),
});
export type OrganisationUpsertedEvent = Static<typeof OrganisationUpsertedEventSchema>;
