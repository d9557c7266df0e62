import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BusUnavailableError,
  createApp,
  createServiceMetrics,
  instrumentBus,
  openServiceDatabase,
  startService,
  type App,
  type MessageBus,
} from '../src/index.js';
import {
  createEmptyDatabase,
  createTestBusNamespace,
  metricSample,
  missingServer,
  silentLogger,
  testBackends,
} from '../src/testing/index.js';
import { createMigrationsFolder } from './fixtures/migrations-folder.js';

function newApp(metrics?: ReturnType<typeof createServiceMetrics>): Promise<App> {
  return createApp({
    name: 'kit-test',
    title: 'kit',
    description: 'kit',
    logger: silentLogger(),
    bodyLimit: 1024,
    readiness: {},
    ...(metrics ? { metrics: metrics.http } : {}),
  });
}

const folder = createMigrationsFolder(['CREATE TABLE "metrics_things" ("id" integer PRIMARY KEY);']);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('metrics', () => {
  it('are served on their own port by startService, not on the public one, and stop with the service', async () => {
    const service = await startService({
      name: 'kit-test',
      config: { HOST: '127.0.0.1', PORT: 0, METRICS_HOST: '127.0.0.1', METRICS_PORT: 0 },
      logger: silentLogger(),
      build: async ({ metrics }) => {
        const app = await newApp(metrics);
        app.get('/things/:thingId', async () => ({ ok: true }));
        return app;
      },
    });
    try {
      expect(service.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(service.metricsUrl!).port).not.toBe(new URL(service.url).port);
      expect((await fetch(`${service.url}/things/abc-1`)).status).toBe(200);
      expect((await fetch(`${service.url}/no/such/route/123`)).status).toBe(404);
      expect((await fetch(`${service.url}/metrics`)).status).toBe(404);

      const response = await fetch(service.metricsUrl!);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const scrape = await response.text();
      // Process defaults, labelled with the service.
      expect(scrape).toMatch(/^process_cpu_user_seconds_total\{service="kit-test"\} /m);
      expect(scrape).toMatch(/^nodejs_eventloop_lag_seconds\{service="kit-test"\} /m);
      // By route template, never by path; an unknown path is one label value.
      expect(
        metricSample(scrape, 'tessera_http_requests_total', {
          service: 'kit-test',
          route: '/things/:thingId',
          method: 'GET',
          status_class: '2xx',
        }),
      ).toBe(1);
      expect(
        metricSample(scrape, 'tessera_http_request_duration_seconds_count', {
          route: '/things/:thingId',
          method: 'GET',
          status_class: '2xx',
        }),
      ).toBe(1);
      expect(
        metricSample(scrape, 'tessera_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' }),
      ).toBe(2);
      expect(scrape).not.toContain('abc-1');
      expect(scrape).not.toContain('/no/such/route');
      expect((await fetch(service.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await service.close();
    }
    await expect(fetch(service.metricsUrl!)).rejects.toThrow();
  });

  it('without METRICS_PORT or a default port, startService serves none', async () => {
    const service = await startService({
      name: 'kit-test',
      config: { HOST: '127.0.0.1', PORT: 0 },
      logger: silentLogger(),
      build: () => newApp(),
    });
    expect(service.metricsUrl).toBeUndefined();
    await service.close();
  });

  it('METRICS_ENABLED=false serves nothing and instruments nothing', async () => {
    let registry: ReturnType<typeof createServiceMetrics>['registry'] | undefined;
    const service = await startService({
      name: 'kit-test',
      config: { HOST: '127.0.0.1', PORT: 0, METRICS_PORT: 0, METRICS_ENABLED: false },
      logger: silentLogger(),
      build: async ({ metrics }) => {
        registry = metrics.registry;
        return newApp(metrics);
      },
    });
    try {
      expect(service.metricsUrl).toBeUndefined();
      expect((await fetch(`${service.url}/health`)).status).toBe(200);
      const scrape = await registry!.metrics();
      expect(metricSample(scrape, 'tessera_http_requests_total', { route: '/health' })).toBeUndefined();
      expect(scrape).not.toContain('process_cpu_user_seconds_total');
    } finally {
      await service.close();
    }
  });

  it('NATS requests are counted by subject and result, with their latency', async () => {
    const metrics = createServiceMetrics({ service: 'kit-test' });
    const namespace = createTestBusNamespace();
    const peer = await namespace.connect('peer');
    const bus: MessageBus = instrumentBus(await namespace.connect('kit-test'), metrics.nats);
    try {
      peer.respond('kit.v1.answer', 'peer', async (payload) =>
        (payload as { fail?: boolean }).fail
          ? { ok: false, error: { statusCode: 404, code: 'NOT_FOUND', message: 'no' } }
          : { ok: true, data: {} },
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await bus.request('kit.v1.answer', {});
      await bus.request('kit.v1.answer', { fail: true });
      await expect(bus.request('kit.v1.nobody', {}, { timeoutMs: 300 })).rejects.toBeInstanceOf(BusUnavailableError);
      const scrape = await metrics.registry.metrics();
      expect(metricSample(scrape, 'tessera_nats_requests_total', { subject: 'kit.v1.answer', result: 'ok' })).toBe(1);
      expect(metricSample(scrape, 'tessera_nats_requests_total', { subject: 'kit.v1.answer', result: 'error' })).toBe(
        1,
      );
      expect(
        metricSample(scrape, 'tessera_nats_request_duration_seconds_count', { subject: 'kit.v1.answer', result: 'ok' }),
      ).toBe(1);
      const unanswered =
        metricSample(scrape, 'tessera_nats_requests_total', { subject: 'kit.v1.nobody', result: 'no-responders' }) ??
        metricSample(scrape, 'tessera_nats_requests_total', { subject: 'kit.v1.nobody', result: 'timeout' });
      expect(unanswered).toBe(1);
    } finally {
      await bus.close();
      await peer.close();
    }
  });

  describe.skipIf(missingServer('postgres', 'database pool metrics'))('on a PostgreSQL server', () => {
    it('the pool shows queries in use and waiting, and the migrations applied', async () => {
      const url = await createEmptyDatabase(testBackends().postgres.adminUrl!);
      const metrics = createServiceMetrics({ service: 'kit-test' });
      const config = {
        NODE_ENV: 'test',
        PORT: 0,
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        DATA_DIR: '.',
        MIGRATE_ON_START: true,
        DB_POOL_SIZE: 2,
        DB_CONNECT_TIMEOUT_SECONDS: 3,
      };
      const database = await openServiceDatabase({
        service: 'kit-metrics',
        config,
        schema: {},
        migrationsFolder: folder,
        logger: silentLogger(),
        metrics: metrics.database,
      });
      try {
        const pool = async (state: string) =>
          metricSample(await metrics.registry.metrics(), 'tessera_db_pool_connections', { state });
        expect(
          metricSample(await metrics.registry.metrics(), 'tessera_db_migrations_applied', { service: 'kit-test' }),
        ).toBe(1);
        expect(await pool('in_use')).toBe(0);
        // Drizzle's queries are lazy: Promise.all sends them.
        const running = Promise.all([
          ...[1, 2, 3].map(() => database.db.execute(sql`select pg_sleep(0.4)`)),
          database.db.transaction(async (tx) => {
            await tx.execute(sql`select pg_sleep(0.4)`);
          }),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await pool('in_use')).toBe(2);
        expect(await pool('idle')).toBe(0);
        expect(await pool('waiting')).toBe(2);
        await running;
        expect(await pool('in_use')).toBe(0);
        expect(await pool('idle')).toBe(2);
        expect(await pool('waiting')).toBe(0);
      } finally {
        await database.close();
      }
    });
  });
});
