import { intentResolveRpc } from '@tessera/contracts';
import { serveRequests, type Logger, type MessageBus } from '@tessera/service-kit';
import type { EcosystemMetrics } from '../metrics/ecosystem-metrics.js';
import { presentIntentResolution } from '../presenters/intent-resolutions.js';
import { resolveIntent, type ResolveIntentDeps } from '../use-cases/resolve-intent.js';

export interface IntentResolveResponderDeps extends ResolveIntentDeps {
  bus: MessageBus;
  logger: Logger;
  metrics: Pick<EcosystemMetrics, 'observeResolution'>;
}

/** Answers `ecosystem.v1.intent.resolve` as a member of queue group `ecosystem`. Returns the function that stops answering. */
export function serveIntentResolve(deps: IntentResolveResponderDeps): () => void {
  return serveRequests(deps.bus, intentResolveRpc, {
    logger: deps.logger,
    handler: async (request) =>
      presentIntentResolution(await deps.metrics.observeResolution(() => resolveIntent(deps, request))),
  });
}
