import { trustListChangedEvent, type TrustListChangedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';

/**
 * Receives `ecosystem.v1.trust-list.changed` on every replica (a plain subscription, no
 * queue group): each replica holds its own snapshots of the lists it follows, and hands
 * each event to `onChanged` (the snapshots fetch the newer list when they follow it).
 * Core NATS may drop an event: the snapshots' periodic refresh catches up. Returns the
 * function that unsubscribes.
 */
export function subscribeTrustListChanges(
  bus: MessageBus,
  deps: { logger: Logger; onChanged: (event: TrustListChangedEvent) => void },
): () => void {
  return subscribeEvents(bus, trustListChangedEvent, { logger: deps.logger, handler: deps.onChanged });
}
