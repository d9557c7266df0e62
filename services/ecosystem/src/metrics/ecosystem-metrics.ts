import { Counter, Histogram, LATENCY_BUCKETS, observeOutcome, type Registry } from '@tessera/service-kit';

/** The ecosystem service's own series (README, Operating Tessera: Metrics). */
export interface EcosystemMetrics {
  /** Runs an intent resolution and counts and times it by result: `resolved` or the refusal's code. */
  observeResolution<T>(resolve: () => Promise<T>): Promise<T>;
  /** Runs the handling of an organisation event and counts it by result: `applied` or the failure's code. */
  observeOrganisationEvent(handle: () => Promise<void>): Promise<void>;
}

export function createEcosystemMetrics(registry: Registry): EcosystemMetrics {
  const resolutions = new Counter({
    name: 'tessera_ecosystem_intent_resolutions_total',
    help: 'Intent resolutions answered over NATS, by result (resolved, or the error code of the refusal).',
    labelNames: ['result'],
    registers: [registry],
  });
  const resolutionDuration = new Histogram({
    name: 'tessera_ecosystem_intent_resolution_duration_seconds',
    help: 'Time to resolve an intent (cache or database), by result.',
    labelNames: ['result'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const organisationEvents = new Counter({
    name: 'tessera_ecosystem_organisation_events_total',
    help: 'Organisation events (platform.v1.organisation.upserted) handled, by result (applied, or the error code).',
    labelNames: ['result'],
    registers: [registry],
  });
  // The hot path's children, bound once.
  const resolved = {
    count: resolutions.labels({ result: 'resolved' }),
    time: resolutionDuration.labels({ result: 'resolved' }),
  };
  return {
    observeResolution: (resolve) =>
      observeOutcome(
        resolve,
        (result, seconds) => {
          if (result === 'resolved') {
            resolved.count.inc();
            resolved.time.observe(seconds);
            return;
          }
          resolutions.inc({ result });
          resolutionDuration.observe({ result }, seconds);
        },
        { success: 'resolved' },
      ),
    observeOrganisationEvent: (handle) =>
      observeOutcome(handle, (result) => organisationEvents.inc({ result }), { success: 'applied' }),
  };
}
