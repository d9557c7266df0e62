import { Type, type TSchema } from 'typebox';
import { Envelope, Page, PagingQuerySchema, type PageOf, type PagingQuery } from '@tessera/contracts';

// The management APIs' success envelope and paging, once for every service: the route
// schemas (what a route answers and takes) and the values a handler sends.

/** Response schema of a route answering `data` in the envelope: `{ statusCode, message, data }`. */
export function envelopeOf<T extends TSchema>(data: T) {
  return Envelope(data);
}

/** Response schema of a paged list: the envelope around `{ totalItems, totalPages, page, pageSize, data: item[] }`. */
export function pageEnvelopeOf<T extends TSchema>(item: T) {
  return Envelope(Page(item));
}

/** Query schema of a paged list: `pageNumber` and `pageSize` plus the route's own parameters. */
export function pagingQueryWith<P extends Record<string, TSchema>>(properties: P) {
  return Type.Object({ ...PagingQuerySchema.properties, ...properties });
}

/** The management APIs' success body; send it with HTTP status = `statusCode`. */
export function envelope<T>(statusCode: number, message: string, data: T) {
  return { statusCode, message, data };
}

export interface PageWindow {
  page: number;
  pageSize: number;
  offset: number;
}

/** Resolves paging defaults (page 1, size 10) into an offset window. */
export function pageWindow(query: PagingQuery): PageWindow {
  const page = query.pageNumber ?? 1;
  const pageSize = query.pageSize ?? 10;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function toPage<T>(items: T[], totalItems: number, window: PageWindow): PageOf<T> {
  return {
    totalItems,
    totalPages: Math.ceil(totalItems / window.pageSize),
    page: window.page,
    pageSize: window.pageSize,
    data: items,
  };
}
