import { Type, type TSchema } from 'typebox';
import { Envelope, Page } from '@tessera/contracts';

/** Path parameters every management route has. */
export const OrgParamsSchema = Type.Object({ orgId: Type.String({ minLength: 1, maxLength: 200 }) });

/** Security of the management routes: a bearer token with a role in the path's organisation. */
export const MANAGEMENT = 'bearer' as const;

export function envelopeOf<T extends TSchema>(data: T) {
  return Envelope(data);
}

export function pageEnvelopeOf<T extends TSchema>(item: T) {
  return Envelope(Page(item));
}
