import type { lookup as dnsLookup } from 'node:dns';
import type { AddressClassification } from './classify-address.js';
import { createGuardedFetch } from './create-guarded-fetch.js';
import { isInternalHost, type StatusListNetworkPolicy } from '../domain/status-list-network-policy.js';

/** A status list host that resolves to (or is) an address the policy refuses. */
export class StatusListAddressError extends Error {
  readonly code = 'ESTATUSLISTADDRESS';

  constructor(hostname: string, refused: AddressClassification) {
    super(
      `${hostname} resolves to ${refused.address} (${refused.range}), which status list fetches may not reach (list the host in STATUS_LIST_INTERNAL_HOSTS if it is served inside the cluster)`,
    );
    this.name = 'StatusListAddressError';
  }
}

/**
 * The `fetch` status lists are read with by default: the network's guarded fetch
 * (`network/create-guarded-fetch.ts`: the address checked is the address
 * connected to), with the hosts of `internalHosts` exempt from the address rule.
 */
export function createStatusListFetch(
  policy: Pick<StatusListNetworkPolicy, 'denyPrivateAddresses' | 'internalHosts'>,
  options: {
    /** Name resolution (node:dns `lookup` by default; a test passes its own to play DNS). */ resolve?: typeof dnsLookup;
  } = {},
): typeof fetch {
  return createGuardedFetch(
    { denyPrivateAddresses: policy.denyPrivateAddresses, isExempt: (hostname) => isInternalHost(policy, hostname) },
    {
      refusal: (hostname, refused) => new StatusListAddressError(hostname, refused),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
  );
}
