import { describe, expect, test } from 'vitest';
import { ErrorCode, Subject, trustListGetRpc, type TrustListSnapshot } from '@tessera/contracts';
import { AppError, createServiceMetrics, instrumentBus, serveRequests } from '@tessera/service-kit';
import { createTestBusNamespace, metricSample, silentLogger } from '@tessera/service-kit/testing';
import { createVerifierMetrics } from '../../src/metrics/verifier-metrics.js';
import { TrustListSnapshots } from '../../src/state/trust-list-snapshots.js';
import { createVerificationCache } from '../../src/state/verification-cache.js';

const KNOWN = '7d0f7c3e-2a51-4f7e-9a53-0d6b5f1c2e11';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('trust-list fetch metrics', () => {
  test('count and time each request for a list by result, and the NATS request under it by subject and result', async () => {
    const namespace = createTestBusNamespace();
    const metrics = createServiceMetrics({ service: 'verifier' });
    const verifierBus = instrumentBus(await namespace.connect('verifier'), metrics.nats);
    const ecosystemBus = await namespace.connect('ecosystem');
    const stop = serveRequests(ecosystemBus, trustListGetRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<TrustListSnapshot> => {
        if (request.ecosystemId !== KNOWN) throw new AppError(404, ErrorCode.ECOSYSTEM_NOT_FOUND, 'No such ecosystem.');
        return {
          ecosystemId: KNOWN,
          sequence: 1,
          nextUpdate: new Date(Date.now() + 3_600_000).toISOString(),
          entities: [],
        };
      },
    });
    await ecosystemBus.ping();
    const snapshots = new TrustListSnapshots({
      bus: verifierBus,
      clock: () => new Date(),
      logger: silentLogger(),
      cache: createVerificationCache(),
      timeoutMs: 2000,
      refreshMs: 3_600_000,
      metrics: createVerifierMetrics(metrics.registry),
    });
    try {
      expect((await snapshots.current(KNOWN)).sequence).toBe(1);
      await expect(snapshots.current(UNKNOWN)).rejects.toMatchObject({ code: ErrorCode.ECOSYSTEM_NOT_FOUND });
      const scrape = await metrics.registry.metrics();
      expect(metricSample(scrape, 'tessera_verifier_trust_list_fetches_total', { result: 'ok' })).toBe(1);
      expect(
        metricSample(scrape, 'tessera_verifier_trust_list_fetches_total', { result: ErrorCode.ECOSYSTEM_NOT_FOUND }),
      ).toBe(1);
      expect(metricSample(scrape, 'tessera_verifier_trust_list_fetch_duration_seconds_count', { result: 'ok' })).toBe(
        1,
      );
      expect(
        metricSample(scrape, 'tessera_nats_requests_total', { subject: Subject.TRUST_LIST_GET, result: 'ok' }),
      ).toBe(1);
      expect(
        metricSample(scrape, 'tessera_nats_requests_total', { subject: Subject.TRUST_LIST_GET, result: 'error' }),
      ).toBe(1);
      expect(scrape).not.toContain(KNOWN);
    } finally {
      stop();
      await verifierBus.close();
      await ecosystemBus.close();
    }
  });
});
