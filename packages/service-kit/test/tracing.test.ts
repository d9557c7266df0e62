import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { context, createContextKey, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import postgres from 'postgres';
import {
  ConfigError,
  connectBus,
  NatsBus,
  createApp,
  InProcessBus,
  InProcessHub,
  readTracingConfig,
  serviceTracer,
  startTracing,
  summariseStatement,
  traceBus,
  type Tracing,
} from '../src/index.js';
import { traceSqlClient } from '../src/tracing/db-tracing.js';
import { connect as connectNats, headers as natsHeaders } from '@nats-io/transport-node';
import { captureLogger, missingServer, silentLogger, testBackends } from '../src/testing/index.js';

const started: Tracing[] = [];
afterEach(async () => {
  for (const tracing of started.splice(0)) await tracing.shutdown();
});

async function appOf(name: string, logger = silentLogger()) {
  const app = await createApp({ name, title: name, description: name, logger, bodyLimit: 1024, readiness: {} });
  app.get('/things/:id', async (request) => {
    request.log.info('looking the thing up');
    return { id: (request.params as { id: string }).id };
  });
  await app.ready();
  return app;
}

describe('tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset)', () => {
  test('starts no SDK and installs nothing: no tracer, the bus and the SQL client untouched, no trace id in logs', async () => {
    const tracing = startTracing({ service: 'untraced', env: { OTEL_SERVICE_NAME: 'ignored-without-endpoint' } });
    started.push(tracing);
    expect(tracing.enabled).toBe(false);
    expect(serviceTracer('untraced')).toBeUndefined();
    // No SDK registered anything global: no context manager (a value set is not seen inside),
    // and the API's tracer answers with its no-op, non-recording span.
    const key = createContextKey('probe');
    expect(context.with(context.active().setValue(key, 1), () => context.active().getValue(key))).toBeUndefined();
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);

    const bus = await connectBus({ name: 'untraced', logger: silentLogger(), hub: new InProcessHub() });
    expect(bus).toBeInstanceOf(InProcessBus);
    const client = postgres('postgres://127.0.0.1:1/none', { max: 1 });
    expect(traceSqlClient(client, 'untraced')).toBe(client);
    await client.end();

    const logs = captureLogger('untraced', 'info');
    const app = await appOf('untraced', logs.logger);
    await app.inject({ url: '/things/1', headers: { 'x-request-id': 'req-off' } });
    await app.close();
    const lines = logs.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.reqId === 'req-off').length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => 'traceId' in line)).toBe(false);
  });

  test('OTEL_SDK_DISABLED=true keeps it off even with an endpoint', () => {
    expect(
      readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, 'svc'),
    ).toEqual({ enabled: false });
  });
});

describe('tracing configuration', () => {
  test('defaults to http/protobuf and the service name; OTEL_SERVICE_NAME and the traces endpoint override', () => {
    expect(readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'verifier')).toEqual({
      enabled: true,
      serviceName: 'verifier',
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
    });
    expect(
      readTracingConfig(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otel.example/ingest',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'verifier-eu',
        },
        'verifier',
      ),
    ).toEqual({ enabled: true, serviceName: 'verifier-eu', url: 'https://otel.example/ingest', protocol: 'http/json' });
  });

  test('refuses grpc (no gRPC exporter is installed) and an endpoint that is not an http(s) URL', () => {
    expect(() =>
      readTracingConfig(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
        'svc',
      ),
    ).toThrow(ConfigError);
    expect(() => readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'svc')).toThrow(/http\(s\) URL/);
  });
});

describe('tracing on', () => {
  test('every log line of a request carries its x-request-id and the trace id of its span', async () => {
    const exporter = new InMemorySpanExporter();
    started.push(startTracing({ service: 'logged', exporter }));
    const logs = captureLogger('logged', 'info');
    const app = await appOf('logged', logs.logger);
    const response = await app.inject({
      url: '/things/42?access_token=secret',
      headers: { 'x-request-id': 'req-logged-1' },
    });
    expect(response.statusCode).toBe(200);
    await app.close();

    const [span] = exporter.getFinishedSpans().filter((finished) => finished.name === 'GET /things/:id');
    expect(span).toBeDefined();
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/things/:id',
      'http.response.status_code': 200,
      'tessera.request_id': 'req-logged-1',
    });
    const lines = logs
      .lines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.reqId === 'req-logged-1');
    // incoming request, the handler's own line, request completed
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'looking the thing up', 'request completed']);
    for (const line of lines) expect(line.traceId).toBe(span!.spanContext().traceId);
  });

  test("a request's span continues the caller's traceparent", async () => {
    const exporter = new InMemorySpanExporter();
    started.push(startTracing({ service: 'continued', exporter }));
    const app = await appOf('continued');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await app.inject({ url: '/things/1', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    await app.close();
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  test('the in-process bus carries the trace context of requests and events, like NATS headers', async () => {
    const exporter = new InMemorySpanExporter();
    started.push(startTracing({ service: 'bus-a', exporter }), startTracing({ service: 'bus-b', exporter }));
    const hub = new InProcessHub();
    const caller = traceBus(new InProcessBus(hub), 'bus-a');
    const callee = traceBus(new InProcessBus(hub), 'bus-b');
    const seen: Array<Record<string, string> | undefined> = [];
    callee.respond('svc.v1.thing.get', 'svc', async (_payload, message) => {
      seen.push(message.traceContext);
      return { ok: true };
    });
    const handled = new Promise<void>((resolve) => callee.subscribe('svc.v1.thing.changed', () => resolve()));
    await caller.request('svc.v1.thing.get', {}, { requestId: 'req-bus' });
    caller.publish('svc.v1.thing.changed', {});
    await handled;
    await new Promise((resolve) => setTimeout(resolve, 10));

    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(byName('process svc.v1.thing.get').parentSpanContext?.spanId).toBe(
      byName('request svc.v1.thing.get').spanContext().spanId,
    );
    expect(byName('process svc.v1.thing.changed').parentSpanContext?.spanId).toBe(
      byName('publish svc.v1.thing.changed').spanContext().spanId,
    );
    expect(seen[0]?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(byName('process svc.v1.thing.get').resource.attributes['service.name']).toBe('bus-b');
  });

  test('an http/json exporter posts OTLP JSON, an http/protobuf one protobuf, to the configured endpoint', async () => {
    const received: Array<{ url?: string; type?: string; body: Buffer }> = [];
    const server: Server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: request.url, type: request.headers['content-type'], body: Buffer.concat(chunks) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const protocol of ['http/json', 'http/protobuf']) {
        const tracing = startTracing({
          service: 'exported',
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
        });
        expect(tracing.enabled).toBe(true);
        serviceTracer('exported')!.startSpan('one unit of work').end();
        await tracing.shutdown();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(received.map((post) => [post.url, post.type])).toEqual([
      ['/v1/traces', 'application/json'],
      ['/v1/traces', 'application/x-protobuf'],
    ]);
    const json = JSON.parse(received[0]!.body.toString('utf8')) as {
      resourceSpans: Array<{
        resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
        scopeSpans: Array<{ spans: Array<{ name: string }> }>;
      }>;
    };
    expect(json.resourceSpans[0]!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'exported' },
    });
    expect(json.resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => span.name)).toEqual(['one unit of work']);
    expect(received[1]!.body.includes(Buffer.from('one unit of work'))).toBe(true);
  });
});

describe.skipIf(missingServer('nats', 'trace context over NATS'))('trace context over NATS', () => {
  test('travels in the headers of a request and back in the headers of its reply', async () => {
    const exporter = new InMemorySpanExporter();
    started.push(startTracing({ service: 'nats-a', exporter }), startTracing({ service: 'nats-b', exporter }));
    const url = testBackends().nats.url!;
    const subject = `test.v1.traced.${Math.random().toString(36).slice(2)}`;
    const callee = traceBus(await NatsBus.connect({ url, name: 'nats-b', logger: silentLogger() }), 'nats-b');
    const caller = traceBus(await NatsBus.connect({ url, name: 'nats-a', logger: silentLogger() }), 'nats-a');
    const raw = await connectNats({ servers: url });
    try {
      callee.respond(subject, 'test', async () => ({ ok: true }));
      await callee.ping();
      expect(await caller.request(subject, {}, { requestId: 'req-nats' })).toEqual({ ok: true });
      const spans = exporter.getFinishedSpans();
      const request = spans.find((span) => span.name === `request ${subject}`)!;
      const handling = spans.find((span) => span.name === `process ${subject}`)!;
      expect(handling.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(handling.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(handling.resource.attributes['service.name']).toBe('nats-b');

      // On the wire, both ways: the request's traceparent in, the answering span's back.
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const sent = natsHeaders();
      sent.set('traceparent', `00-${traceId}-b7ad6b7169203331-01`);
      const reply = await raw.request(subject, JSON.stringify({}), { timeout: 2000, headers: sent });
      const answered = exporter
        .getFinishedSpans()
        .filter((span) => span.name === `process ${subject}`)
        .at(-1)!;
      expect(answered.spanContext().traceId).toBe(traceId);
      expect(reply.headers?.get('traceparent')).toBe(`00-${traceId}-${answered.spanContext().spanId}-01`);
    } finally {
      await raw.close();
      await caller.close();
      await callee.close();
    }
  });
});

describe('statement summaries', () => {
  test('name the operation and table, never values', () => {
    expect(summariseStatement('select "id", "name" from "ecosystem"."ecosystems" where "id" = $1')).toEqual({
      name: 'SELECT ecosystem.ecosystems',
      operation: 'SELECT',
      table: 'ecosystem.ecosystems',
    });
    expect(summariseStatement('insert into "sessions" ("id") values ($1)').name).toBe('INSERT sessions');
    expect(summariseStatement('update "verifier"."sessions" set "state" = $1').name).toBe('UPDATE verifier.sessions');
    expect(summariseStatement("delete from sessions where note = 'x'").name).toBe('DELETE sessions');
    expect(summariseStatement('with gone as (delete from t returning 1) select count(*) from gone').name).toBe('WITH');
  });
});

describe.skipIf(missingServer('postgres', 'statement spans on postgres-js'))('statement spans on PostgreSQL', () => {
  test('one CLIENT span per statement, a child of the active span, ended when it settles, failed on an error', async () => {
    const exporter = new InMemorySpanExporter();
    started.push(startTracing({ service: 'statements', exporter }));
    const tracer = serviceTracer('statements')!;
    const client = postgres(testBackends().postgres.adminUrl!, { max: 1, onnotice: () => {} });
    try {
      const sql = traceSqlClient(client, 'statements');
      const parent = tracer.startSpan('GET /things/:id');
      await context.with(trace.setSpan(context.active(), parent), async () => {
        const issued = sql.unsafe('select $1::int + 1 as next from pg_class limit 1', [41]);
        // Lazy until awaited, as postgres.js queries are: nothing ended yet, `.values()` still applies.
        expect(exporter.getFinishedSpans()).toEqual([]);
        expect(await issued.values()).toEqual([[42]]);
        await expect(sql.unsafe('select * from no_such_table')).rejects.toThrow(/no_such_table/);
        expect(await sql.begin((tx) => tx.unsafe('select 1 as one'))).toEqual([{ one: 1 }]);
      });
      parent.end();
      const statements = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
      expect(statements.map((span) => [span.name, span.status.code])).toEqual([
        ['SELECT pg_class', SpanStatusCode.UNSET],
        ['SELECT no_such_table', SpanStatusCode.ERROR],
        ['SELECT', SpanStatusCode.UNSET],
      ]);
      expect(statements[0]!.attributes).toEqual({
        'db.system.name': 'postgresql',
        'db.operation.name': 'SELECT',
        'db.query.summary': 'SELECT pg_class',
        'db.collection.name': 'pg_class',
      });
      expect(statements[1]!.status.message).toBe('PostgresError');
      for (const span of statements) {
        expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
        expect(span.endTime[0]).toBeGreaterThan(0);
      }
    } finally {
      await client.end();
    }
  });
});
