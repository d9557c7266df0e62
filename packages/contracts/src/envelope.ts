import { Type, type Static, type TSchema } from 'typebox';

/** Success envelope of the management APIs: HTTP status equals `statusCode`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    statusCode: Type.Integer(),
    message: Type.String(),
    data,
  });
}

/** Envelope without `data`, for operations the specs answer with a message only. */
export const MessageEnvelopeSchema = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
});

export const MAX_PAGE_SIZE = 100;

/** Highest page number accepted; also keeps `1e309` (Infinity after coercion) out of OFFSET. */
export const MAX_PAGE_NUMBER = 1_000_000;

/** `pageNumber` (default 1, 1..1,000,000) and `pageSize` (default 10, 1..100); out of range is 400. */
export const PagingQuerySchema = Type.Object({
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
});
export type PagingQuery = Static<typeof PagingQuerySchema>;

/** A page of items: `data: { totalItems, totalPages, page, pageSize, data }`. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    totalItems: Type.Integer(),
    totalPages: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    data: Type.Array(item),
  });
}

export interface PageOf<T> {
  totalItems: number;
  totalPages: number;
  page: number;
  pageSize: number;
  data: T[];
}
