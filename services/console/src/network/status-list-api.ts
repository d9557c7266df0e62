import {
  STATUS_LIST_CWT_MEDIA_TYPE,
  STATUS_LIST_MEDIA_TYPE,
  type PageOf,
  type StatusListVersion,
} from '@tessera/contracts';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import { pathOf, type ServiceClient } from './service-client.js';

/** A status list token as the service served it: its form (by media type) and its bytes. */
export interface StatusListTokenAnswer {
  mediaType: string;
  body: Uint8Array;
}

/**
 * The status list service's public reads (services/status-list/README.md). Writes take
 * the issuer's API key, which the console never holds.
 */
export function createStatusListApi(client: ServiceClient) {
  return {
    /**
     * The stored token, byte for byte, in whichever form the list was published (a
     * compact JWS or a COSE_Sign1); with `time` (unix seconds), the version valid then.
     */
    async getStatusListToken(listId: string, time?: number): Promise<ServiceResult<StatusListTokenAnswer>> {
      const answered = await client.bytes('GET', pathOf`/status-lists/${listId}`, {
        accept: `${STATUS_LIST_MEDIA_TYPE}, ${STATUS_LIST_CWT_MEDIA_TYPE}`,
        query: { time },
      });
      if (!answered.ok) return answered;
      const mediaType = (answered.value.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      return succeeded({ mediaType, body: answered.value.body });
    },

    /**
     * A page of the list's versions, newest first: the current token, then each kept one
     * (`GET /status-lists/:list_id/versions`); 501 HISTORY_NOT_SUPPORTED when the service keeps none.
     */
    async getStatusListVersions(
      listId: string,
      page: { pageNumber: number; pageSize: number },
    ): Promise<ServiceResult<PageOf<StatusListVersion>>> {
      const answered = await client.text('GET', pathOf`/status-lists/${listId}/versions`, {
        accept: 'application/json',
        query: page,
      });
      if (!answered.ok) return answered;
      try {
        const parsed = JSON.parse(answered.value.body) as PageOf<StatusListVersion>;
        if (Array.isArray(parsed.data)) return succeeded(parsed);
      } catch {
        // Answered below.
      }
      return failed({
        service: 'status-list',
        status: 502,
        code: 'INVALID_VERSIONS',
        message: "The status list service answered a list's versions that are not a page of versions.",
      });
    },

    /** The URI (`sub`) of every list the service holds (Status List Aggregation). */
    async getAggregation(): Promise<ServiceResult<string[]>> {
      const answered = await client.text('GET', '/status-lists/aggregation');
      if (!answered.ok) return answered;
      let parsed: unknown;
      try {
        parsed = JSON.parse(answered.value.body);
      } catch {
        parsed = undefined;
      }
      const lists = (parsed as { status_lists?: unknown } | undefined)?.status_lists;
      if (!Array.isArray(lists) || !lists.every((uri) => typeof uri === 'string'))
        return failed({
          service: 'status-list',
          status: 502,
          code: 'INVALID_AGGREGATION',
          message: 'The status list service answered an aggregation that is not {"status_lists": [URI, …]}.',
        });
      return succeeded(lists);
    },
  };
}

export type StatusListApi = ReturnType<typeof createStatusListApi>;
