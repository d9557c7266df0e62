// Baseline: a bare Fastify route answering a body of the same size as a status list
// token, with the same content type (CONTENT_TYPE: application/statuslist+jwt unless
// given); 304 when If-None-Match matches. BODIES_FILE, when given, names a JSON file of
// `{ "<id>": "<base64 of its bytes>" }`: the route then answers each id with the very bytes
// the service answers it with (404 for another id), so the load generator reads the same
// responses from both sides. That matters: autocannon decodes every body as UTF-8 text, and
// for binary CBOR that costs it about twice as much per response when the bodies differ
// (1,000 lists) as when one body repeats (measured in-process, 40 against 22 µs), so a
// baseline answering one body measured autocannon, not the service. Otherwise the body is
// filler of BODY_BYTES. The same Fastify version as the service (both pinned to 5.12.8),
// as Fastify's defaults leave it: no logger, hooks or schemas. What the service does
// beyond this (the platform's security headers and request id, CORS and caching headers,
// logging at warn, the lookup) is what the ratio measures.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const contentType = process.env.CONTENT_TYPE ?? 'application/statuslist+jwt';
const size = Number(process.env.BODY_BYTES ?? 1024);
const bodies = process.env.BODIES_FILE
  ? new Map(
      Object.entries(JSON.parse(readFileSync(process.env.BODIES_FILE, 'utf8'))).map(([id, base64]) => [
        id,
        Buffer.from(base64, 'base64'),
      ]),
    )
  : undefined;
const filler = contentType.endsWith('+cwt') ? Buffer.alloc(size, 0x78) : 'x'.repeat(size);
const etag = '"baseline"';
const app = Fastify({ logger: false });
app.get('/status-lists/:id', async (request, reply) => {
  if (request.headers['if-none-match'] === etag) return reply.code(304).header('etag', etag).send();
  const body = bodies ? bodies.get(request.params.id) : filler;
  if (body === undefined) return reply.code(404).send();
  return reply.type(contentType).header('etag', etag).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
