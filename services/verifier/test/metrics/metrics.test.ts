import { describe, expect } from 'vitest';
import { VerificationErrorCode } from '@tessera/contracts';
import { createServiceMetrics, startMetricsServer } from '@tessera/service-kit';
import { metricSample, scrapeMetrics, waitFor } from '@tessera/service-kit/testing';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { issuePid, newHolder } from '../support/issuers.js';

// The app's metrics, served on a listener of their own as startService serves them.
const metrics = createServiceMetrics({ service: 'verifier' });

const test = e2eTest({ metrics }).extend('metricsUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
  const server = await startMetricsServer({ registry: metrics.registry, host: '127.0.0.1', port: 0 });
  onCleanup(() => server.close());
  return server.url;
});

/** A redirect session answered with a PID, presented with `options` (a wrong nonce makes it fail). */
async function answerWithPid(e: E2e, options: { nonce?: string } = {}) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const presentation = await presentPid(await issuePid(e.issuer, holder), holder, requestFacts(resolved), options);
  return submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] }));
}

describe('verifier metrics', () => {
  test('count sessions, request-object fetches and presentations by format and outcome, on the metrics port only', async ({
    e2e: e,
    metricsUrl,
  }) => {
    expect((await answerWithPid(e)).status).toBe(200);
    expect((await answerWithPid(e, { nonce: 'another-nonce' })).status).toBe(400);
    // The wallet-facing port serves no metrics.
    expect((await fetch(`${e.url}/metrics`)).status).toBe(404);

    const scrape = await scrapeMetrics(metricsUrl);
    const series = (name: string, labels: Record<string, string> = {}) =>
      metricSample(scrape, name, { service: 'verifier', ...labels });
    expect(series('tessera_verifier_sessions_created_total', { response_mode: 'direct_post' })).toBe(2);
    expect(scrape).toMatch(
      /^tessera_verifier_sessions_created_total\{response_mode="direct_post",signer="[A-Za-z0-9_]+",service="verifier"\} 2$/m,
    );
    expect(series('tessera_verifier_request_object_fetches_total', { result: 'ok' })).toBe(2);
    expect(series('tessera_verifier_presentations_total', { format: 'dc+sd-jwt', outcome: 'verified' })).toBe(1);
    expect(
      series('tessera_verifier_presentations_total', {
        format: 'dc+sd-jwt',
        outcome: VerificationErrorCode.NONCE_MISMATCH,
      }),
    ).toBe(1);
    // Every code of the verification table is a series from the start, for every format.
    for (const code of Object.values(VerificationErrorCode)) {
      expect(series('tessera_verifier_presentations_total', { format: 'mso_mdoc', outcome: code }), code).toBe(0);
    }
    // The wallet fetches its request with POST (wallet_nonce); one answer verified (2xx), one refused (4xx); never an id in a route.
    expect(
      series('tessera_http_requests_total', {
        route: '/oid4vp/authorization-requests/:authorizationRequestId',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(2);
    expect(
      series('tessera_http_request_duration_seconds_count', {
        route: '/oid4vp/authorization-responses/:authorizationRequestId',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      series('tessera_http_requests_total', {
        route: '/oid4vp/authorization-responses/:authorizationRequestId',
        method: 'POST',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(series('tessera_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(series('tessera_db_pool_connections', { state: 'waiting' })).toBe(0);
    // The purge and the expiry sweeper ran at start (jobs/background-jobs.ts): a run is counted even when it removed nothing.
    await waitFor(
      async () =>
        (metricSample(await scrapeMetrics(metricsUrl), 'tessera_verifier_purge_runs_total', { result: 'purged' }) ??
          0) >= 1,
      5000,
      'a purge run counted',
    );
    expect(series('tessera_verifier_sessions_expired_total')).toBe(0);
    for (const name of [
      'tessera_verifier_webhook_deliveries_total',
      'tessera_verifier_trust_list_fetches_total',
      'tessera_verifier_trust_list_fetch_duration_seconds',
      'tessera_verifier_status_list_fetches_total',
      'tessera_verifier_status_list_fetch_duration_seconds',
      'tessera_verifier_purged_total',
      'tessera_verifier_purge_runs_total',
      'tessera_verifier_sessions_expired_total',
      'tessera_nats_requests_total',
    ]) {
      expect(scrape, name).toContain(`# TYPE ${name} `);
    }
  });
});
