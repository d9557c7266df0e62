// Baseline: a bare Fastify route answering a body of the same size as a status list
// token, with the same content type (CONTENT_TYPE: application/statuslist+jwt unless
// given; a CWT baseline sends bytes: BODY_BASE64's, when given, so the load generator reads
// the very bytes the service sends); 304 when If-None-Match matches. The same
// Fastify version as the service (both pinned to 5.12.8), as Fastify's defaults leave
// it: no logger, hooks or schemas. What the service does beyond this (the platform's
// security headers and request id, CORS and caching headers, logging at warn, the
// lookup) is what the ratio measures.
import Fastify from 'fastify';

const contentType = process.env.CONTENT_TYPE ?? 'application/statuslist+jwt';
const size = Number(process.env.BODY_BYTES ?? 1024);
const exact = process.env.BODY_BASE64 ? Buffer.from(process.env.BODY_BASE64, 'base64') : undefined;
const body = exact ?? (contentType.endsWith('+cwt') ? Buffer.alloc(size, 0x78) : 'x'.repeat(size));
const etag = '"baseline"';
const app = Fastify({ logger: false });
app.get('/status-lists/:id', async (request, reply) => {
  if (request.headers['if-none-match'] === etag) return reply.code(304).header('etag', etag).send();
  return reply.type(contentType).header('etag', etag).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
