// A stand-in OTLP/HTTP collector for the tracing-overhead benchmark (issue 16 item 5):
// accepts POST /v1/traces in either encoding, counts exports and bytes, answers 200.
// The service pays the real cost of tracing (spans, batching, encoding, the HTTP post);
// only a collector's own work is left out. With `countSpans` it also counts the spans it
// receives by name (protobuf: a walk over the wire format's fields, no decoder library),
// work the benchmark's own process then does: for a run that counts spans, not for one
// that measures what tracing costs.
import { createServer } from 'node:http';

/** Reads a base-128 varint at `offset`: [value, next offset]. */
function readVarint(bytes, offset) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, offset];
}

/** Calls `onField(number, bytes)` for each length-delimited field of one protobuf message; skips the others. */
function eachLengthDelimited(bytes, onField) {
  let offset = 0;
  while (offset < bytes.length) {
    let key;
    [key, offset] = readVarint(bytes, offset);
    const wireType = key & 7;
    if (wireType === 2) {
      let length;
      [length, offset] = readVarint(bytes, offset);
      onField(Math.floor(key / 8), bytes.subarray(offset, offset + length));
      offset += length;
    } else if (wireType === 0) [, offset] = readVarint(bytes, offset);
    else if (wireType === 1) offset += 8;
    else if (wireType === 5) offset += 4;
    else throw new Error(`OTLP stub: wire type ${wireType} is not expected in a trace export`);
  }
}

/**
 * Counts the spans of an ExportTraceServiceRequest by name: resource_spans (1) → scope_spans (2)
 * → spans (2) → name (5), as opentelemetry-proto's trace.proto numbers them.
 */
function countProtobufSpans(body, byName) {
  eachLengthDelimited(body, (field, resourceSpans) => {
    if (field !== 1) return;
    eachLengthDelimited(resourceSpans, (field, scopeSpans) => {
      if (field !== 2) return;
      eachLengthDelimited(scopeSpans, (field, span) => {
        if (field !== 2) return;
        eachLengthDelimited(span, (field, value) => {
          if (field === 5) {
            const name = value.toString('utf8');
            byName.set(name, (byName.get(name) ?? 0) + 1);
          }
        });
      });
    });
  });
}

function countJsonSpans(body, byName) {
  for (const resource of JSON.parse(body.toString('utf8')).resourceSpans ?? [])
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? []) byName.set(span.name, (byName.get(span.name) ?? 0) + 1);
}

/** Starts the stub on 127.0.0.1; `env` is what points a service at it. */
export async function startOtlpCollectorStub({ protocol = 'http/protobuf', countSpans = false } = {}) {
  const stats = { exports: 0, bytes: 0, spansByName: new Map() };
  const server = createServer((request, response) => {
    const chunks = [];
    let bytes = 0;
    request.on('data', (chunk) => {
      bytes += chunk.length;
      if (countSpans) chunks.push(chunk);
    });
    request.on('end', () => {
      const json = String(request.headers['content-type']).includes('json');
      if (request.method === 'POST' && request.url === '/v1/traces') {
        stats.exports += 1;
        stats.bytes += bytes;
        if (countSpans) (json ? countJsonSpans : countProtobufSpans)(Buffer.concat(chunks), stats.spansByName);
      }
      // An empty ExportTraceServiceResponse: `{}` in JSON, zero bytes in protobuf.
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
