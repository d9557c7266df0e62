// Issue 16 item 2: one trace runs verifier HTTP → NATS → ecosystem → PostgreSQL. Both
// services run in this process, each with its own tracer provider (its own `service.name`),
// on a NATS server of this file's own (real subjects, nobody else answering) and real
// PostgreSQL, exporting to one in-memory exporter.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { connectBus, startTracing, type RunningService, type Tracing } from '@tessera/service-kit';
import {
  createEmptyDatabase,
  missingServer,
  silentLogger,
  startPrivateNats,
  testBackends,
  type PrivateServer,
} from '@tessera/service-kit/testing';
import { ecosystemService } from '@tessera/ecosystem/server';
import { createHarness, type Harness } from '../support/harness.js';

const ORG = 'org-traced';
const exporter = new InMemorySpanExporter();
let tracings: Tracing[] = [];
let nats: PrivateServer | undefined;
let ecosystem: RunningService | undefined;
let harness: Harness | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-trace-'));

const serviceOf = (span: ReadableSpan) => span.resource.attributes['service.name'];
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe.skipIf(missingServer('postgres', 'cross-service trace') || missingServer('nats', 'cross-service trace'))(
  'a trace across verifier, NATS, ecosystem and PostgreSQL',
  () => {
    beforeAll(async () => {
      tracings = [startTracing({ service: 'verifier', exporter }), startTracing({ service: 'ecosystem', exporter })];
      nats = await startPrivateNats();
      if (!nats) throw new Error('nats-server is needed for this test');
      const databaseUrl = await createEmptyDatabase(testBackends().postgres.adminUrl!);
      const config = ecosystemService.loadConfig({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        NATS_URL: nats.url,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      });
      ecosystem = await ecosystemService.start(config, silentLogger());
      harness = await createHarness({
        connectBus: () => connectBus({ url: nats!.url, name: 'verifier', logger: silentLogger() }),
      });
    });
    afterAll(async () => {
      await harness?.close();
      await ecosystem?.close();
      await nats?.stop();
      for (const tracing of tracings) await tracing.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('the HTTP request, the NATS request, the ecosystem handling and its query share one trace, each a child of the one before', async () => {
      const h = harness!;
      const auth = await h.auth(ORG);
      expect(
        (await h.call('POST', `/v1/orgs/${ORG}/oid4vp/verifier`, { headers: auth, body: { verifierId: 'desk' } }))
          .status,
      ).toBe(201);
      exporter.reset();

      const requestId = 'trace-test-request-1';
      const created = await h.call(
        'POST',
        `/v1/orgs/${ORG}/oid4vp/intent-based-verification-presentation?verifierId=desk&ecosystemId=${randomUUID()}`,
        {
          headers: { ...auth, 'x-request-id': requestId },
          body: { intent: 'age-check', responseMode: 'direct_post' },
        },
      );
      // The ecosystem looked the ecosystem up in its database and answered that it does not exist.
      expect(created.body, JSON.stringify(created.body)).toMatchObject({ code: 'ECOSYSTEM_NOT_FOUND' });

      const spans = exporter.getFinishedSpans();
      const http = spans.find(
        (span) =>
          serviceOf(span) === 'verifier' &&
          span.name === 'POST /v1/orgs/:orgId/oid4vp/intent-based-verification-presentation',
      );
      expect(http, spans.map((span) => `${serviceOf(span)} ${span.name}`).join('\n')).toBeDefined();
      expect(http!.attributes).toMatchObject({
        'http.route': '/v1/orgs/:orgId/oid4vp/intent-based-verification-presentation',
        'http.response.status_code': 404,
        'tessera.request_id': requestId,
      });
      const traceId = http!.spanContext().traceId;
      const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);

      const request = inTrace.find(
        (span) => serviceOf(span) === 'verifier' && span.name === 'request ecosystem.v1.intent.resolve',
      );
      expect(request).toBeDefined();
      expect(parentOf(request!)).toBe(http!.spanContext().spanId);
      expect(request!.attributes).toMatchObject({
        'messaging.system': 'nats',
        'messaging.destination.name': 'ecosystem.v1.intent.resolve',
        'messaging.message.conversation_id': requestId,
      });

      const handling = inTrace.find(
        (span) => serviceOf(span) === 'ecosystem' && span.name === 'process ecosystem.v1.intent.resolve',
      );
      expect(handling).toBeDefined();
      expect(parentOf(handling!)).toBe(request!.spanContext().spanId);

      const queries = inTrace.filter(
        (span) => serviceOf(span) === 'ecosystem' && span.attributes['db.system.name'] === 'postgresql',
      );
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) {
        expect(parentOf(query)).toBe(handling!.spanContext().spanId);
        expect(query.name).toMatch(/^SELECT \S+$/);
        // The statement's name only: no text, no values.
        expect(Object.keys(query.attributes).sort()).toEqual([
          'db.collection.name',
          'db.operation.name',
          'db.query.summary',
          'db.system.name',
        ]);
      }
    });
  },
);
