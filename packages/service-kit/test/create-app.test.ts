import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { AppError, createApp, type App } from '../src/index.js';
import { captureLogger } from '../src/testing/index.js';

describe('createApp', () => {
  let app: App;
  let failReady = false;
  let failNats = false;
  const logs = captureLogger('kit-test', 'info');

  beforeAll(async () => {
    app = await createApp({
      name: 'kit-test',
      title: 'Kit test',
      description: 'test app',
      logger: logs.logger,
      bodyLimit: 1024,
      readiness: {
        database: async () => {
          if (failReady) throw new Error('down');
        },
      },
      informational: {
        nats: async () => {
          if (failNats) throw new Error('no connection');
        },
      },
    });
    app.post(
      '/things',
      {
        schema: {
          body: Type.Object(
            { name: Type.String({ minLength: 2 }), count: Type.Integer({ maximum: 5 }) },
            { additionalProperties: false },
          ),
        },
      },
      async (request) => ({ got: request.body.name }),
    );
    app.get('/boom', async () => {
      throw new Error('secret internal detail');
    });
    app.get('/nul', async () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    });
    app.get('/db-down', async () => {
      throw new Error('query failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    });
    app.get('/conflict', async () => {
      throw new AppError(409, 'THING_EXISTS', 'That thing exists already.');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers health and readiness, and 503 when a check fails', async () => {
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/health/ready' })).statusCode).toBe(200);
    failReady = true;
    const down = await app.inject({ url: '/health/ready' });
    failReady = false;
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable', nats: 'ok' } });
  });

  it('stays ready while an informational check fails, reports it, and logs it once rather than per probe', async () => {
    const natsLines = () =>
      logs
        .lines()
        .map((line) => JSON.parse(line) as { check?: string; level: number; msg: string })
        .filter((line) => line.check === 'nats');
    failNats = true;
    const probes = [];
    for (let i = 0; i < 5; i++) probes.push(await app.inject({ url: '/health/ready' }));
    failNats = false;
    expect(probes.map((probe) => probe.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(probes[0]!.json()).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'unavailable' } });
    const warnings = natsLines().filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('still ready');
    expect((await app.inject({ url: '/health/ready' })).json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', nats: 'ok' },
    });
    expect(natsLines().filter((line) => line.level === 30)).toHaveLength(1);
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
  });

  it('propagates a safe x-request-id and replaces an unsafe one', async () => {
    const kept = await app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\u0000<script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await app.inject({ url: '/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers schema failures with VALIDATION_FAILED and details per problem', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x', count: 9, extra: 1 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED' });
    const paths = body.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['/count', '/extra', '/name']);
  });

  it('answers bad JSON, empty JSON, wrong content type and big bodies with the platform body', async () => {
    const badJson = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.json()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'The body is not valid JSON.',
    });
    const empty = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    const wrongType = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(wrongType.json()).toMatchObject({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'Unsupported Media Type',
    });
    const big = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x'.repeat(5000), count: 1 } });
    expect(big.json()).toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
  });

  it('answers a value the database cannot store with 400, and an unreachable database with 503', async () => {
    expect((await app.inject({ url: '/nul' })).json()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('NUL'),
    });
    expect((await app.inject({ url: '/db-down' })).json()).toMatchObject({
      statusCode: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
    });
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    const response = await app.inject({ url: '/nope' });
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found' });
  });

  it('maps AppError to its status and code', async () => {
    const response = await app.inject({ url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'THING_EXISTS',
      message: 'That thing exists already.',
    });
  });

  it('never leaks an internal message or stack in a 500, but logs it', async () => {
    const response = await app.inject({ url: '/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: expect.any(String),
    });
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('at ');
    expect(logs.text()).toContain('secret internal detail');
  });

  it('serves the OpenAPI document and docs page', async () => {
    const doc = await app.inject({ url: '/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toContain('/things');
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('sets security headers', async () => {
    const response = await app.inject({ url: '/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
  });

  it('sends every security header and the request id on every answer: success, 4xx, unmatched route, 500', async () => {
    // The set the services have sent since helmet's defaults were adopted (API CSP), value for value.
    const expected = {
      'content-security-policy':
        "default-src 'none';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const answers = [
      await app.inject({ url: '/health', headers: { 'x-request-id': 'req-1' } }),
      await app.inject({
        method: 'POST',
        url: '/things',
        payload: { name: 'x' },
        headers: { 'x-request-id': 'req-2' },
      }),
      await app.inject({ url: '/no-such-route', headers: { 'x-request-id': 'req-3' } }),
      await app.inject({ url: '/boom', headers: { 'x-request-id': 'req-4' } }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 400, 404, 500]);
    answers.forEach((answer, index) => {
      expect(answer.headers).toMatchObject({ ...expected, 'x-request-id': `req-${index + 1}` });
    });
  });

  it('logs the request id it answers with, never an unsafe one the caller sent', async () => {
    const unsafe = 'bad id<script>';
    const response = await app.inject({ url: '/boom', headers: { 'x-request-id': unsafe } });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.text()).toContain(id);
    expect(logs.text()).not.toContain('bad id');
  });

  it('redacts secrets in logged headers', async () => {
    app.log.info(
      { req: { headers: { authorization: 'Bearer abc.def.ghi', 'x-api-key': 'super-secret-key-123' } } },
      'manual',
    );
    expect(logs.text()).not.toContain('abc.def.ghi');
    expect(logs.text()).not.toContain('super-secret-key-123');
  });
});
