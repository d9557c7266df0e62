import { trustListGetRpc } from '@tessera/contracts';
import { serveRequests, type Logger, type MessageBus } from '@tessera/service-kit';
import { presentTrustListSnapshot } from '../presenters/trust-list-snapshots.js';
import { getTrustListSnapshot, type GetTrustListSnapshotDeps } from '../use-cases/get-trust-list-snapshot.js';

export interface TrustListGetResponderDeps extends GetTrustListSnapshotDeps {
  bus: MessageBus;
  logger: Logger;
}

/** Answers `ecosystem.v1.trust-list.get` as a member of queue group `ecosystem`. Returns the function that stops answering. */
export function serveTrustListGet(deps: TrustListGetResponderDeps): () => void {
  return serveRequests(deps.bus, trustListGetRpc, {
    logger: deps.logger,
    handler: async (request) => presentTrustListSnapshot(await getTrustListSnapshot(deps, request)),
  });
}
