import { STATUS_LIST_MEDIA_TYPE } from '@tessera/contracts';
import { pathOf, type ServiceClient } from './service-client.js';

/**
 * The status list service's public read (services/status-list/README.md). Writes take
 * the issuer's API key, which the console never holds; the service has no list of
 * lists, so a list is opened by its id.
 */
export function createStatusListApi(client: ServiceClient) {
  return {
    /** The stored status list token (a compact JWS), byte for byte. */
    getStatusListToken: (listId: string) =>
      client.text('GET', pathOf`/status-lists/${listId}`, { accept: STATUS_LIST_MEDIA_TYPE }),
  };
}

export type StatusListApi = ReturnType<typeof createStatusListApi>;
