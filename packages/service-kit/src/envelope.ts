import type { PageOf, PagingQuery } from '@tessera/contracts';

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
