import type { TSchema } from 'typebox';
import { ErrorCode } from './error-codes.js';
import {
  IntentResolveRequestSchema,
  IntentResolveResultSchema,
  OrganisationUpsertedEventSchema,
  SessionUpdatedEventSchema,
  VerificationTemplateGetRequestSchema,
  VerificationTemplateSummarySchema,
} from './inter-service.js';
import { QueueGroup, Subject } from './nats.js';
import { TrustListChangedEventSchema, TrustListGetRequestSchema, TrustListSnapshotSchema } from './trust-registry.js';

/**
 * One NATS request/reply of the inter-service contract (ARCHITECTURE.md): the caller
 * (`callService`) and the responder (`serveRequests`) both take this object, so the
 * request, the reply data and the failures are typed and validated end to end.
 */
export interface RpcDescriptor<
  Req extends TSchema = TSchema,
  Res extends TSchema = TSchema,
  Failure extends ErrorCode = ErrorCode,
> {
  subject: string;
  /** Queue group of the answering service: its replicas share the load. */
  queue: string;
  request: Req;
  reply: Res;
  /** The `code`s an `{ ok: false }` reply may carry, besides VALIDATION_FAILED and INTERNAL. */
  failures: readonly Failure[];
  /** Names the answering service in messages, e.g. "the ecosystem service". */
  peer: string;
}

/** One event (publish, no reply): subscribers validate the payload against `payload`. */
export interface EventDescriptor<Payload extends TSchema = TSchema> {
  subject: string;
  payload: Payload;
}

/** `ecosystem.v1.intent.resolve`: which template an organisation's intent uses in an ecosystem. */
export const intentResolveRpc = {
  subject: Subject.INTENT_RESOLVE,
  queue: QueueGroup.ECOSYSTEM,
  request: IntentResolveRequestSchema,
  reply: IntentResolveResultSchema,
  failures: [
    ErrorCode.ECOSYSTEM_DISABLED,
    ErrorCode.ECOSYSTEM_NOT_FOUND,
    ErrorCode.NOT_A_MEMBER,
    ErrorCode.INTENT_NOT_FOUND,
    ErrorCode.INTENT_TEMPLATE_NOT_FOUND,
    ErrorCode.DEPENDENCY_UNAVAILABLE,
  ],
  peer: 'the ecosystem service',
} as const satisfies RpcDescriptor;

/** `verifier.v1.verification-template.get`: lets the ecosystem check a verifier-role intent template. */
export const verificationTemplateGetRpc = {
  subject: Subject.VERIFICATION_TEMPLATE_GET,
  queue: QueueGroup.VERIFIER,
  request: VerificationTemplateGetRequestSchema,
  reply: VerificationTemplateSummarySchema,
  failures: [ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND, ErrorCode.DEPENDENCY_UNAVAILABLE],
  peer: 'the verifier service',
} as const satisfies RpcDescriptor;

/** `verifier.v1.session.updated`: published on every state change of a presentation session. */
export const sessionUpdatedEvent = {
  subject: Subject.SESSION_UPDATED,
  payload: SessionUpdatedEventSchema,
} as const satisfies EventDescriptor;

/** `platform.v1.organisation.upserted`: published by the platform's organisation service. */
export const organisationUpsertedEvent = {
  subject: Subject.ORGANISATION_UPSERTED,
  payload: OrganisationUpsertedEventSchema,
} as const satisfies EventDescriptor;

/** `ecosystem.v1.trust-list.get`: an ecosystem's trust registry as of its current sequence. */
export const trustListGetRpc = {
  subject: Subject.TRUST_LIST_GET,
  queue: QueueGroup.ECOSYSTEM,
  request: TrustListGetRequestSchema,
  reply: TrustListSnapshotSchema,
  failures: [
    ErrorCode.ECOSYSTEM_DISABLED,
    ErrorCode.ECOSYSTEM_NOT_FOUND,
    ErrorCode.NOT_A_MEMBER,
    ErrorCode.DEPENDENCY_UNAVAILABLE,
  ],
  peer: 'the ecosystem service',
} as const satisfies RpcDescriptor;

/** `ecosystem.v1.trust-list.changed`: an ecosystem's registry changed (core NATS: may be lost; readers also poll). */
export const trustListChangedEvent = {
  subject: Subject.TRUST_LIST_CHANGED,
  payload: TrustListChangedEventSchema,
} as const satisfies EventDescriptor;
