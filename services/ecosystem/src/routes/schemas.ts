// Route schema pieces shared by the route modules.
import { Type } from 'typebox';
import { Envelope, Page, PagingQuerySchema } from '@tessera/contracts';
import type { TSchema } from 'typebox';

export { Envelope, Page };

/** Paging query parameters plus the route's own. */
export function PagedQuery<P extends Record<string, TSchema>>(properties: P) {
  return Type.Object({ ...PagingQuerySchema.properties, ...properties });
}

/** A path id kept as a plain string: malformed ids are answered 404 like unknown ones (README). */
export const PathId = Type.String({ maxLength: 200 });

/** Success envelopes of a paged list and of a single item. */
export const PagedEnvelope = <T extends TSchema>(item: T) => Envelope(Page(item));
