import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** `http://host:port/metrics`, for a local scraper. */
  url: string;
  close(): Promise<void>;
}

export interface StartMetricsServerOptions {
  registry: Registry;
  /** METRICS_HOST and METRICS_PORT (0: an ephemeral port). */
  host: string;
  port: number;
}

/**
 * Serves `GET /metrics` on its own listener, so the public port (and Service) never
 * exposes it; anything else is 404. Plain node:http: it needs no routing, auth or
 * body parsing, and stays up while the app drains on shutdown.
 */
export async function startMetricsServer(options: StartMetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    options.registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = ['0.0.0.0', '::'].includes(options.host) ? '127.0.0.1' : options.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
