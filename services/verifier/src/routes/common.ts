import { Type } from 'typebox';
import { Envelope, ErrorBodySchema, MessageEnvelopeSchema, Page } from '@tessera/contracts';
import type { TSchema } from 'typebox';

/** Path parameters every management route has. */
export const OrgParamsSchema = Type.Object({ orgId: Type.String({ minLength: 1, maxLength: 200 }) });

/** Error responses of management routes, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBodySchema> {
  return Object.fromEntries([401, 403, ...statuses].map((status) => [status, ErrorBodySchema]));
}

export function envelopeOf<T extends TSchema>(data: T) {
  return Envelope(data);
}

export function pageEnvelopeOf<T extends TSchema>(item: T) {
  return Envelope(Page(item));
}

export { MessageEnvelopeSchema };
