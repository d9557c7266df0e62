import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { serviceTracer, startTracing, type Tracing } from '@tessera/service-kit';
import { traceCheck } from '../../src/verification/trace-check.js';

// Issue 27 item 5: a synchronous check ends its span without a promise; one that awaits keeps
// its span active as the parent of what it starts (statements, NATS requests).
const SERVICE = 'trace-check-test';
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ service: SERVICE, exporter });
});
afterAll(() => tracing.shutdown());
const tracer = () => serviceTracer(SERVICE)!;
const finished = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name);

describe('traceCheck', () => {
  it('answers a synchronous check synchronously, its span already ended with the outcome', () => {
    exporter.reset();
    const answer = traceCheck(tracer(), 'validity', () => ({ ok: true as const }));
    expect(answer).toEqual({ ok: true });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(finished('verify validity')?.attributes).toEqual({
      'tessera.verification.check': 'validity',
      'tessera.verification.outcome': 'ok',
    });
  });

  it("records a synchronous failure's code", () => {
    exporter.reset();
    const failure = { code: 'DCQL_NOT_SATISFIED', message: 'no credential set satisfied' } as never;
    expect(traceCheck(tracer(), 'dcql', () => failure)).toBe(failure);
    expect(finished('verify dcql')?.attributes['tessera.verification.outcome']).toBe('DCQL_NOT_SATISFIED');
  });

  it("keeps an asynchronous check's span active across its awaits, the parent of what it starts, ended when it settles", async () => {
    exporter.reset();
    const pending = traceCheck(tracer(), 'issuer_trust', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      tracer().startSpan('SELECT trust_anchors').end();
      return { ok: true as const };
    });
    expect(pending).toBeInstanceOf(Promise);
    expect(finished('verify issuer_trust')).toBeUndefined();
    expect(await pending).toEqual({ ok: true });
    const check = finished('verify issuer_trust')!;
    expect(check.attributes['tessera.verification.outcome']).toBe('ok');
    expect(finished('SELECT trust_anchors')!.parentSpanContext?.spanId).toBe(check.spanContext().spanId);
  });

  it('is a child of the active span and leaves the active context as it was', () => {
    exporter.reset();
    const parent = tracer().startSpan('POST /response');
    const active = trace.setSpan(context.active(), parent);
    context.with(active, () => {
      expect(traceCheck(tracer(), 'dcql', () => undefined)).toBeUndefined();
      expect(trace.getSpan(context.active())).toBe(parent);
    });
    parent.end();
    expect(finished('verify dcql')!.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it('ends the span of a check that throws or rejects, and passes the error on', async () => {
    exporter.reset();
    expect(() =>
      traceCheck(tracer(), 'vp_token_shape', () => {
        throw new TypeError('boom');
      }),
    ).toThrow('boom');
    await expect(traceCheck(tracer(), 'status', () => Promise.reject(new RangeError('down')))).rejects.toThrow('down');
    expect(finished('verify vp_token_shape')).toBeDefined();
    expect(finished('verify status')).toBeDefined();
  });

  it('without a tracer is the check itself', () => {
    exporter.reset();
    expect(traceCheck(undefined, 'validity', () => 42)).toBe(42);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
