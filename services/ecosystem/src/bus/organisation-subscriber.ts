import { organisationUpsertedEvent, QueueGroup } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';
import type { EcosystemMetrics } from '../metrics/ecosystem-metrics.js';
import { applyOrganisationUpsert, type ApplyOrganisationUpsertDeps } from '../use-cases/apply-organisation-upsert.js';

export interface OrganisationSubscriberDeps extends ApplyOrganisationUpsertDeps {
  bus: MessageBus;
  logger: Logger;
  metrics: Pick<EcosystemMetrics, 'observeOrganisationEvent'>;
}

/**
 * Keeps the organisation directory in step with `platform.v1.organisation.upserted`.
 * One replica of the queue group takes each event; a malformed event is logged and dropped.
 * Returns the function that stops following.
 */
export function followOrganisationEvents(deps: OrganisationSubscriberDeps): () => void {
  return subscribeEvents(deps.bus, organisationUpsertedEvent, {
    logger: deps.logger,
    queue: QueueGroup.ECOSYSTEM,
    handler: async (event, context) => {
      await deps.metrics.observeOrganisationEvent(() => applyOrganisationUpsert(deps, event));
      deps.logger.debug({ requestId: context.requestId, orgId: event.id }, 'organisation directory updated');
    },
  });
}
