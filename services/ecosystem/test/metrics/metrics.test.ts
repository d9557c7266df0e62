import { describe, expect } from 'vitest';
import { ErrorCode, intentResolveRpc, Subject, verificationTemplateGetRpc } from '@tessera/contracts';
import {
  callService,
  createServiceMetrics,
  serveRequests,
  startMetricsServer,
  type MessageBus,
} from '@tessera/service-kit';
import {
  createTestBusNamespace,
  metricSample,
  missingServer,
  scrapeMetrics,
  silentLogger,
  waitFor,
} from '@tessera/service-kit/testing';
import { findOrganisation } from '../../src/db/organisations.js';
import { harnessTest } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { createIntentAsLead, ORG } from '../support/world.js';

// The app's metrics, served on a listener of their own as startService serves them.
const metrics = createServiceMetrics({ service: 'ecosystem' });
const buses = createTestBusNamespace();

const test = harnessTest(async () => ({ bus: await buses.connect('ecosystem-under-test'), metrics }))
  .extend('metricsUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startMetricsServer({ registry: metrics.registry, host: '127.0.0.1', port: 0 });
    onCleanup(() => server.close());
    return server.url;
  })
  .extend('client', { scope: 'file' }, async ({}, { onCleanup }): Promise<MessageBus> => {
    const client = await buses.connect('resolve-client');
    onCleanup(() => client.close());
    return client;
  });

describe.skipIf(missingServer('nats', 'ecosystem metrics'))('ecosystem metrics', () => {
  test('count intent resolutions by result with their latency, organisation events and the requests the service sends', async ({
    harness: h,
    world,
    client,
    metricsUrl,
  }) => {
    const verifierStub = await buses.connect('verifier-stub');
    const stop = serveRequests(verifierStub, verificationTemplateGetRpc, {
      logger: silentLogger(),
      handler: async ({ templateId }) => ({
        id: templateId,
        orgId: ORG.lead,
        name: templateId,
        signerOption: 'DID' as const,
      }),
    });
    try {
      const intentId = await createIntentAsLead(h, world, 'Age Check');
      // Checking a verifier-role template asks the verifier over NATS.
      expectStatus(
        await h.call('POST', `/v1/intent/${intentId}/template`, {
          token: world.tokens.lead,
          body: { templateId: 'tpl-global', role: 'verifier' },
        }),
        201,
      );
    } finally {
      stop();
      await verifierStub.close();
    }
    await callService(client, intentResolveRpc, {
      ecosystemId: world.ecosystemId,
      intent: 'Age Check',
      orgId: ORG.lead,
      role: 'verifier',
    });
    await expect(
      callService(client, intentResolveRpc, {
        ecosystemId: world.ecosystemId,
        intent: 'Age Check',
        orgId: ORG.outsider,
        role: 'verifier',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_A_MEMBER });
    client.publish(Subject.ORGANISATION_UPSERTED, {
      id: 'org-metrics',
      name: 'Metrics Org',
      ownerUserId: 'user-m',
      ownerEmail: 'm@example.org',
    });
    await waitFor(
      async () => (await findOrganisation(h.database.db, 'org-metrics')) !== undefined,
      2000,
      'the organisation from the event',
    );

    expect((await h.call('GET', '/metrics')).status).toBe(404);
    const scrape = await scrapeMetrics(metricsUrl);
    const series = (name: string, labels: Record<string, string> = {}) =>
      metricSample(scrape, name, { service: 'ecosystem', ...labels });
    expect(series('tessera_ecosystem_intent_resolutions_total', { result: 'resolved' })).toBe(1);
    expect(series('tessera_ecosystem_intent_resolutions_total', { result: ErrorCode.NOT_A_MEMBER })).toBe(1);
    expect(series('tessera_ecosystem_intent_resolution_duration_seconds_count', { result: 'resolved' })).toBe(1);
    expect(
      series('tessera_ecosystem_intent_resolution_duration_seconds_bucket', { result: 'resolved', le: '10' }),
    ).toBe(1);
    await waitFor(
      async () =>
        metricSample(await scrapeMetrics(metricsUrl), 'tessera_ecosystem_organisation_events_total', {
          result: 'applied',
        }) === 1,
      2000,
      'the event counted',
    );
    expect(series('tessera_nats_requests_total', { subject: Subject.VERIFICATION_TEMPLATE_GET, result: 'ok' })).toBe(1);
    expect(
      series('tessera_nats_request_duration_seconds_count', {
        subject: Subject.VERIFICATION_TEMPLATE_GET,
        result: 'ok',
      }),
    ).toBe(1);
    expect(
      series('tessera_http_requests_total', {
        route: '/v1/intent/:intentId/template',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(series('tessera_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(series('tessera_db_pool_connections', { state: 'waiting' })).toBe(0);
    // Bounded labels: no organisation or ecosystem ids anywhere.
    expect(scrape).not.toContain(world.ecosystemId);
    expect(scrape).not.toContain(ORG.lead);
  });
});
