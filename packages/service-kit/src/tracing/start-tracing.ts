import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { readTracingConfig, type TracingConfig } from './tracing-config.js';
import { setServiceTracer } from './service-tracer.js';

/** The instrumentation scope of every span the kit and the services record. */
export const TRACER_NAME = '@tessera/service-kit';

export interface Tracing {
  /** Whether an SDK was started for the service. */
  readonly enabled: boolean;
  /** Sends what is buffered and stops the service's provider; resolves when done. */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  /** The service's name: its tracer's key and the default `service.name`. */
  service: string;
  /** The environment OTEL_* is read from; default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Tests: export synchronously to this exporter (e.g. InMemorySpanExporter), whatever
   * the environment says.
   */
  exporter?: SpanExporter;
}

const OFF: Tracing = { enabled: false, shutdown: async () => {} };
let contextInstalled = false;

/** The async-context manager and W3C propagator, once per process (they hold no service state). */
function installContextPropagation(): void {
  if (contextInstalled) return;
  contextInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function exporterFor(config: Extract<TracingConfig, { enabled: true }>): SpanExporter {
  // The exporters add OTEL_EXPORTER_OTLP_HEADERS / _TIMEOUT / _COMPRESSION from the environment themselves.
  return config.protocol === 'http/json'
    ? new OtlpJsonExporter({ url: config.url })
    : new OtlpProtobufExporter({ url: config.url });
}

/**
 * Starts the OpenTelemetry SDK for one service when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (or a test passes an exporter): a provider whose resource names the service, every
 * span sampled (parent-based: an upstream decision not to sample is kept), batched to
 * the OTLP/HTTP exporter of OTEL_EXPORTER_OTLP_PROTOCOL. Otherwise nothing is started
 * and no instrumentation is installed. Call before the service builds its app, bus and
 * database, since those ask for the tracer once, when they are set up.
 */
export function startTracing(options: StartTracingOptions): Tracing {
  let processor: SpanProcessor;
  let serviceName = options.service;
  if (options.exporter) {
    processor = new SimpleSpanProcessor({ exporter: options.exporter });
  } else {
    const config = readTracingConfig(options.env ?? process.env, options.service);
    if (!config.enabled) return OFF;
    serviceName = config.serviceName;
    processor = new BatchSpanProcessor({ exporter: exporterFor(config) });
  }
  installContextPropagation();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [processor],
  });
  setServiceTracer(options.service, provider.getTracer(TRACER_NAME));
  return {
    enabled: true,
    shutdown: async () => {
      setServiceTracer(options.service, undefined);
      await provider.shutdown();
    },
  };
}
