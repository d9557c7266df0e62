import { Value } from 'typebox/value';
import { OrganisationUpsertedEventSchema, QueueGroup, Subject, type OrganisationUpsertedEvent } from '@tessera/contracts';
import type { Logger, MessageBus } from '@tessera/service-kit';
import { upsertOrganisation } from '../db/organisations.js';
import type { EcoDb } from '../db/db-types.js';

export interface OrganisationEventsOptions {
  bus: MessageBus;
  db: EcoDb;
  logger: Logger;
}

/**
 * Keeps the organisation directory in step with `platform.v1.organisation.upserted`.
 * One replica of the queue group takes each event; a malformed event is logged and dropped.
 */
export function subscribeOrganisationEvents(options: OrganisationEventsOptions): () => void {
  return options.bus.subscribe(
    Subject.ORGANISATION_UPSERTED,
    async (payload, context) => {
      if (!Value.Check(OrganisationUpsertedEventSchema, payload)) {
        options.logger.warn({ requestId: context.requestId, subject: Subject.ORGANISATION_UPSERTED }, 'dropped a malformed organisation event');
        return;
      }
      const event = payload as OrganisationUpsertedEvent;
      await upsertOrganisation(options.db, { id: event.id, name: event.name.trim(), ownerUserId: event.ownerUserId, ownerEmail: event.ownerEmail });
      options.logger.debug({ requestId: context.requestId, orgId: event.id }, 'organisation directory updated');
    },
    { queue: QueueGroup.ECOSYSTEM },
  );
}
