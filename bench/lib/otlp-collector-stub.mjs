// A stand-in OTLP/HTTP collector for the tracing-overhead benchmark (issue 16 item 5):
// accepts POST /v1/traces in either encoding, counts exports and bytes, answers 200.
// The service pays the real cost of tracing (spans, batching, encoding, the HTTP post);
// only a collector's own work is left out.
import { createServer } from 'node:http';

/** Starts the stub on 127.0.0.1; `env` is what points a service at it. */
export async function startOtlpCollectorStub({ protocol = 'http/protobuf' } = {}) {
  const stats = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        stats.exports += 1;
        stats.bytes += bytes;
      }
      // An empty ExportTraceServiceResponse: `{}` in JSON, zero bytes in protobuf.
      const json = String(request.headers['content-type']).includes('json');
      response
        .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
        .end(json ? '{}' : '');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  return {
    stats,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
