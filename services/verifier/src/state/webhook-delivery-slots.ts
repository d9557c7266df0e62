import type { Logger } from '@tessera/service-kit';

/**
 * The replica's webhook sending slots (WEBHOOK_CONCURRENCY): each delivery runs in a
 * slot of its own and frees it when recorded, so a slow receiver holds one slot, never a
 * whole batch — the worker claims again as soon as any slot frees (`onFree`).
 */
export interface WebhookDeliverySlots {
  /** Slots free now: the most a claim may take. */
  free(): number;
  /** Runs one delivery in a slot (the caller took it within `free()`); a failure is logged, never thrown. */
  run(delivery: () => Promise<void>): void;
  /** Deliveries running now. */
  inFlight(): number;
  /** Resolves once every running delivery has ended. */
  idle(): Promise<void>;
}

export function createWebhookDeliverySlots(options: {
  size: number;
  logger: Logger;
  /** Called after each delivery ends: the worker claims again. */
  onFree: () => void;
}): WebhookDeliverySlots {
  const running = new Set<Promise<void>>();
  return {
    free: () => Math.max(0, options.size - running.size),
    inFlight: () => running.size,
    run(delivery) {
      const done: Promise<void> = delivery()
        .catch((error: unknown) =>
          options.logger.warn({ err: error }, 'webhook delivery not recorded; it is sent again'),
        )
        .finally(() => {
          running.delete(done);
          options.onFree();
        });
      running.add(done);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
