import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import addFormats from 'ajv-formats';
import { ErrorBodySchema } from '@tessera/contracts';
import { installErrorHandling } from './error-handler.js';
import { computeSecurityHeaders } from './security-headers.js';
import { quietLogLevel, registerHealthRoutes, type ReadinessCheck } from './health.js';
import { parseTrustProxy } from './config.js';
import { installEventStreams } from './event-stream.js';
import type { Logger } from './logger.js';
import { installHttpMetrics, type HttpMetrics } from './metrics/http-metrics.js';
import { installRequestTracing } from './tracing/http-tracing.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface CreateAppOptions {
  /** Service name, used in logs and the OpenAPI document. */
  name: string;
  title: string;
  description: string;
  version?: string;
  logger: Logger;
  /** Largest accepted body in bytes; larger is 413. */
  bodyLimit: number;
  /** What the pod cannot serve without, by name (e.g. `database`): any failing makes `GET /health/ready` 503. */
  readiness: Record<string, ReadinessCheck>;
  /** Partial dependencies, by name (e.g. `nats`): reported in `GET /health/ready` and logged, the answer stays 200. */
  informational?: Record<string, ReadinessCheck>;
  /** Public base URL, listed as the OpenAPI server. */
  publicBaseUrl?: string;
  /** Extra OpenAPI security schemes, e.g. the API key or bearer token. */
  securitySchemes?: Record<string, unknown>;
  /** TRUST_PROXY: which proxies' X-Forwarded-For gives the client address. */
  trustProxy?: string;
  /** Where every answered request is counted and timed (`ServiceMetrics.http`). */
  metrics?: HttpMetrics;
}

/** Request ids we accept from callers: short and safe to log. Others are replaced. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when it is safe to log and echo, else a fresh UUID. */
function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/**
 * The Fastify instance every service starts from: TypeBox type provider, request ids,
 * redacting logger, security headers, the platform error body for every error,
 * health routes and OpenAPI docs. Routes are registered by the caller afterwards,
 * inside `app.register` or directly; call `await app.ready()` before listening.
 */
export async function createApp(options: CreateAppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit,
    // The id is chosen before anything else sees the request (its logger binds it): a
    // caller's x-request-id when it is safe to log, else a fresh one.
    requestIdHeader: false,
    genReqId: requestIdOf,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    trustProxy: parseTrustProxy(options.trustProxy),
    ajv: {
      customOptions: {
        allErrors: true,
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        strict: false,
      },
      plugins: [addFormats.default as never],
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Before any route: the request span starts with each request's child logger.
  installRequestTracing(app, options.name);
  if (options.metrics) installHttpMetrics(app, options.metrics);

  // APIs answer JSON; the docs page sets its own CSP (swagger-ui staticCSP). Computed once;
  // a synchronous hook (no promise, no microtask per request) copies them onto every reply.
  const securityHeaders = computeSecurityHeaders({
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders).header('x-request-id', request.id);
    done();
  });

  // Declared up front so every request object has the same shape (Fastify's decorateRequest).
  app.decorateRequest('principal', null);
  // Event streams (`startEventStream`) end when the app closes, so a shutdown never waits on them.
  installEventStreams(app);

  // Management APIs take JSON only; a route that takes another type registers its parser.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app);
  app.addSchema(ErrorBodySchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: options.version ?? '0.1.0' },
      ...(options.publicBaseUrl ? { servers: [{ url: options.publicBaseUrl }] } : {}),
      components: { securitySchemes: (options.securitySchemes ?? {}) as never },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { deepLinking: true },
    logLevel: quietLogLevel(options.logger.level),
  });

  registerHealthRoutes(app, {
    required: options.readiness,
    ...(options.informational ? { informational: options.informational } : {}),
  });
  return app;
}
