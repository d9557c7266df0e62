import { ConfigError } from '../config.js';

/** The OTLP encodings the services can send: OTLP/HTTP with JSON or protobuf bodies. */
export type OtlpProtocol = 'http/json' | 'http/protobuf';

export type TracingConfig =
  | { enabled: false }
  | {
      enabled: true;
      /** OTEL_SERVICE_NAME, else the service's own name. */
      serviceName: string;
      /** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
      url: string;
      protocol: OtlpProtocol;
    };

const PROTOCOLS: readonly string[] = ['http/json', 'http/protobuf'];

/**
 * Reads the standard OTEL_* variables (OpenTelemetry specification, "SDK environment
 * variables"). Tracing is on only when an OTLP endpoint is set and OTEL_SDK_DISABLED is
 * not `true`; `grpc` is refused rather than silently sent over HTTP, since only the
 * OTLP/HTTP exporters are installed.
 */
export function readTracingConfig(env: Record<string, string | undefined>, serviceName: string): TracingConfig {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if ((!base && !tracesEndpoint) || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { enabled: false };

  const problems: string[] = [];
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  if (!PROTOCOLS.includes(protocol))
    problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf (got ${JSON.stringify(protocol)})`);
  const url = tracesEndpoint || `${base!.replace(/\/+$/, '')}/v1/traces`;
  if (!/^https?:\/\/[^/]/.test(url))
    problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (got ${JSON.stringify(url)})`);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    enabled: true,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName,
    url,
    protocol: protocol as OtlpProtocol,
  };
}
