import { sessionUpdatedEvent, type SessionUpdatedEvent } from '@tessera/contracts';
import { publishEvent, type MessageBus } from '@tessera/service-kit';

/** Publishes `verifier.v1.session.updated` (fire and forget, as NATS events are; the payload is schema-checked). */
export function publishSessionUpdated(bus: MessageBus, event: SessionUpdatedEvent, requestId?: string): void {
  publishEvent(bus, sessionUpdatedEvent, event, { requestId });
}
