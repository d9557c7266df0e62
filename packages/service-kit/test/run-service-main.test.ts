import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/run-two-services.mjs', import.meta.url));

function run(
  mode: string,
  stopWith?: NodeJS.Signals,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fixture], {
      env: { PATH: process.env.PATH ?? '', MODE: mode, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (stopWith && output.includes('started')) child.kill(stopWith);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('runServiceMain', () => {
  it('reports every bad variable of every service in one start, then exits 1 before starting any', async () => {
    const { code, output } = await run('config');
    expect(code).toBe(1);
    expect(output).toContain('first: invalid configuration');
    expect(output).toContain('PORT: must be an integer');
    expect(output).toContain('second: invalid configuration');
    expect(output).toContain('API_KEY: is required');
    expect(output).toContain('DATABASE_URL: must be a URL');
    expect(output).not.toContain('started');
  });

  it('prints a startup refusal as one line naming the service and exits 1', async () => {
    const { code, output } = await run('refuse');
    expect(code).toBe(1);
    expect(output).toContain('second: KEY_ENCRYPTION_KEY does not open this database');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('refuses an OTLP protocol it cannot send, naming the variable, before starting any service', async () => {
    const { code, output } = await run('ok', undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(code).toBe(1);
    expect(output).toContain('first: invalid configuration');
    expect(output).toContain('OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf');
    expect(output).not.toContain('started');
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT traces each service under its own name and flushes the spans on SIGTERM', async () => {
    const bodies: string[] = [];
    const collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      const { code } = await run('traced', 'SIGTERM', {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      expect(code).toBe(0);
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
    const exported = bodies.map(
      (body) =>
        JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
            scopeSpans: Array<{ spans: Array<{ name: string }> }>;
          }>;
        },
    );
    const spansByService = new Map<string | undefined, string[]>();
    for (const { resourceSpans } of exported) {
      for (const { resource, scopeSpans } of resourceSpans) {
        const service = resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
        spansByService.set(service, [
          ...(spansByService.get(service) ?? []),
          ...scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
        ]);
      }
    }
    expect(Object.fromEntries(spansByService)).toEqual({ first: ['GET /health'], second: ['GET /health'] });
  });

  it('starts every service and closes them all on SIGTERM with exit 0', async () => {
    const { code, output } = await run('ok', 'SIGTERM');
    expect(output).toContain('started first,second');
    expect(code).toBe(0);
  });
});
