import { Subject, type SessionUpdatedEvent } from '@tessera/contracts';
import type { MessageBus } from '@tessera/service-kit';

/** Publishes `verifier.v1.session.updated` (fire and forget, as NATS events are). */
export function publishSessionUpdated(bus: MessageBus, event: SessionUpdatedEvent, requestId?: string): void {
  bus.publish(Subject.SESSION_UPDATED, event, requestId ? { requestId } : {});
}
