import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { App } from '../../create-app.js';
import { arbitraryFor, mutate, nastyString, type JsonSchema } from './schema-arbitrary.js';

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface FuzzRoute {
  method: string;
  /** OpenAPI path, e.g. `/status-lists/{list_id}`. */
  path: string;
  operation: OpenApiOperation;
}

/** Every operation of the app's own OpenAPI document: the routes and their schemas. */
export async function listRoutes(app: App): Promise<FuzzRoute[]> {
  const doc = (await app.inject({ url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const routes: FuzzRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
        routes.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return routes;
}

export interface FuzzRequestOptions {
  /** Headers of a caller allowed on most routes (e.g. a bearer token or API key). */
  authHeaders?: Record<string, string>;
  /** Real values for path parameters, by name, mixed with generated and hostile ones. */
  knownPathValues?: Record<string, string[]>;
}

/** Requests for one route: valid-shaped and mutated parts, with and without credentials. */
export function requestArbitrary(route: FuzzRoute, options: FuzzRequestOptions): fc.Arbitrary<InjectOptions> {
  const parameters = route.operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const pathArb = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const known = options.knownPathValues?.[p.name] ?? [];
        const candidates = [arbitraryFor(p.schema).map(String), nastyString.filter((s) => s.length > 0)];
        return [
          p.name,
          known.length > 0
            ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, ...candidates)
            : fc.oneof(...candidates),
        ];
      }),
    ),
  );
  const queryArb = fc.record(
    Object.fromEntries(
      queryParams.map((p) => [
        p.name,
        fc.oneof(arbitraryFor(p.schema), nastyString, fc.constantFrom('-1', '0', '1e3', '101', '')),
      ]),
    ),
    { requiredKeys: [] },
  );
  const [contentType, body] = Object.entries(route.operation.requestBody?.content ?? {})[0] ?? [];
  const bodyArb = body
    ? fc.oneof(
        { arbitrary: arbitraryFor(body.schema), weight: 1 },
        { arbitrary: mutate(arbitraryFor(body.schema)), weight: 2 },
      )
    : fc.constant(undefined);
  const authArb = fc.oneof(
    { arbitrary: fc.constant(options.authHeaders ?? {}), weight: 6 },
    { arbitrary: fc.constant({}), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        { authorization: 'Bearer x.y.z' },
        { authorization: 'Basic Zm9v' },
        { 'x-api-key': 'wrong-key-wrong-key' },
      ),
      weight: 1,
    },
  );
  return fc.tuple(pathArb, queryArb, bodyArb, authArb).map(([pathValues, query, payload, auth]) => {
    const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodePathSegment(String((pathValues as Record<string, unknown>)[name] ?? 'x')),
    );
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      if (value !== undefined) search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const request: InjectOptions = {
      method: route.method as InjectOptions['method'],
      url: search.size > 0 ? `${url}?${search}` : url,
      headers: { ...auth },
    };
    if (payload !== undefined) {
      request.headers = { ...request.headers, 'content-type': contentType ?? 'application/json' };
      request.payload = contentType === 'application/x-www-form-urlencoded' ? toForm(payload) : JSON.stringify(payload);
    }
    return request;
  });
}

/** Lone surrogates cannot be percent-encoded: send them as U+FFFD, as a browser would. */
function encodePathSegment(value: string): string {
  return encodeURIComponent(
    value.replace(/[\uD800-\uDFFF]/g, (char, index: number, all: string) => {
      const code = char.charCodeAt(0);
      const pairs =
        code < 0xdc00 ? /[\uDC00-\uDFFF]/.test(all[index + 1] ?? '') : /[\uD800-\uDBFF]/.test(all[index - 1] ?? '');
      return pairs ? char : '\uFFFD';
    }),
  );
}

function toForm(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return String(value);
  const form = new URLSearchParams();
  for (const [key, field] of Object.entries(value))
    form.set(key, typeof field === 'string' ? field : JSON.stringify(field));
  return form.toString();
}

export interface FuzzInvariantOptions {
  /** Reads the service's tables; compared before and after every 4xx. */
  snapshot: () => Promise<unknown>;
  /** Error bodies of routes under this prefix are OAuth-shaped (`{error, error_description}`). */
  oauthPrefix?: string;
  /** A route whose 4xx may legitimately change state (e.g. a wallet response that ends a session). */
  mayChangeStateOn4xx?: (route: FuzzRoute) => boolean;
  /** Routes that may answer cross-origin (`Access-Control-Allow-Origin`); none by default. */
  corsAllowed?: (route: FuzzRoute) => boolean;
}

/** Headers every response must carry (helmet), whatever its status. */
const SECURITY_HEADERS: Record<string, (value: string) => boolean> = {
  'x-content-type-options': (value) => value === 'nosniff',
  'strict-transport-security': (value) => value.includes('max-age='),
  'x-frame-options': (value) => value.length > 0,
  'content-security-policy': (value) => value.includes("frame-ancestors 'none'") || value.includes('default-src'),
  'referrer-policy': (value) => value.length > 0,
  'x-request-id': (value) => value.length > 0,
};

/** Missing security headers, or a CORS header where none is allowed. */
export function checkResponseHeaders(headers: Record<string, unknown>, corsAllowed: boolean): string | undefined {
  for (const [name, valid] of Object.entries(SECURITY_HEADERS)) {
    const value = headers[name];
    if (typeof value !== 'string' || !valid(value)) return `no valid ${name} header`;
  }
  if (!corsAllowed && headers['access-control-allow-origin'] !== undefined)
    return 'a CORS header on a route that must not answer cross-origin';
  return undefined;
}

/**
 * Sends one request and checks the platform's invariants: security headers on every
 * response and CORS only where allowed; never a 5xx (but the documented 501); every error
 * carries the error body of its kind; a 4xx changes nothing. Returns a problem, if any.
 */
export async function checkRequest(
  app: App,
  route: FuzzRoute,
  request: InjectOptions,
  invariants: FuzzInvariantOptions,
): Promise<string | undefined> {
  const before = await invariants.snapshot();
  const response = await app.inject(request);
  const sent = request.payload === undefined ? '' : ` with body ${String(request.payload).slice(0, 200)}`;
  const where = `${request.method} ${String(request.url).slice(0, 200)}${sent}`;
  const headerProblem = checkResponseHeaders(response.headers, invariants.corsAllowed?.(route) ?? false);
  if (headerProblem) return `${where} answered ${response.statusCode} with ${headerProblem}`;
  // 501 is a documented answer (a defined but unsupported option), not a failure.
  if (response.statusCode >= 500 && response.statusCode !== 501)
    return `${where} answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode < 400) return undefined;
  let body: Record<string, unknown>;
  try {
    body = response.json();
  } catch {
    return `${where} answered ${response.statusCode} with a body that is not JSON`;
  }
  const oauth = invariants.oauthPrefix !== undefined && route.path.startsWith(invariants.oauthPrefix);
  const shapeProblem = oauth ? checkOAuthBody(body) : checkPlatformBody(body, response.statusCode);
  if (shapeProblem)
    return `${where} answered ${response.statusCode} with ${shapeProblem}: ${response.body.slice(0, 300)}`;
  if (
    !invariants.mayChangeStateOn4xx?.(route) &&
    JSON.stringify(await invariants.snapshot()) !== JSON.stringify(before)
  ) {
    return `${where} answered ${response.statusCode} but changed the database`;
  }
  return undefined;
}

function checkPlatformBody(body: Record<string, unknown>, status: number): string | undefined {
  if (body.statusCode !== status) return 'a statusCode that differs from the HTTP status';
  if (typeof body.error !== 'string' || typeof body.message !== 'string' || body.message.length === 0)
    return 'no error/message';
  if (typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(body.code)) return 'no SCREAMING_SNAKE code';
  if (body.details !== undefined && !Array.isArray(body.details)) return 'details that are not an array';
  return undefined;
}

function checkOAuthBody(body: Record<string, unknown>): string | undefined {
  if (typeof body.error !== 'string' || body.error.length === 0) return 'no OAuth error';
  return undefined;
}

export interface FuzzAllRoutesOptions extends FuzzRequestOptions, FuzzInvariantOptions {
  app: App;
  runsPerRoute: number;
  seed: number;
  include?: (route: FuzzRoute) => boolean;
}

/** Fuzzes every documented route; resolves with the problems found (empty when all held). */
export async function fuzzAllRoutes(
  options: FuzzAllRoutesOptions,
): Promise<{ routes: number; requests: number; problems: string[] }> {
  const routes = (await listRoutes(options.app)).filter((route) => options.include?.(route) ?? true);
  const problems: string[] = [];
  let requests = 0;
  for (const [index, route] of routes.entries()) {
    const samples = fc.sample(requestArbitrary(route, options), {
      seed: options.seed + index,
      numRuns: options.runsPerRoute,
    });
    for (const request of samples) {
      requests += 1;
      const problem = await checkRequest(options.app, route, request, options);
      if (problem) problems.push(problem);
    }
  }
  const health = await options.app.inject({ url: '/health' });
  if (health.statusCode !== 200) problems.push(`GET /health answered ${health.statusCode} after fuzzing`);
  return { routes: routes.length, requests, problems: [...new Set(problems)] };
}

/** Runs per route: small in CI, larger with FUZZ_RUNS. */
export function fuzzRunsPerRoute(defaultRuns = 40): number {
  const configured = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(configured) && configured > 0 ? configured : defaultRuns;
}

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
