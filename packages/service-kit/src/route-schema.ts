import { OAuthErrorBodySchema } from '@tessera/contracts';

/** Security schemes the services declare in their OpenAPI documents (`createApp`'s `securitySchemes`). */
export type RouteSecurity = 'bearer' | 'apiKey' | 'public';

export interface RouteDoc {
  /** One line for the OpenAPI operation. */
  summary: string;
  tags: readonly string[];
  /** Who may call: a bearer token, the API key, or anyone. */
  security: RouteSecurity;
  /**
   * Error statuses the route answers besides those implied: 400 when it takes
   * params, a query or a body; 401 (and 403 for bearer) when it is not public.
   */
  errors?: readonly number[];
  /** The error body's shape: the platform body, or OAuth's for the wallet endpoints. */
  errorBody?: 'platform' | 'oauth';
  description?: string;
}

interface SchemaParts {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  headers?: unknown;
  response?: Record<number | string, unknown>;
}

/**
 * A route's schema with its OpenAPI description: summary, tags, security requirement
 * and every declared error response with the error body. The request and success
 * response schemas pass through unchanged, so the type provider infers as before.
 */
export function routeSchema<S extends SchemaParts>(doc: RouteDoc, schema: S): S {
  const statuses = new Set<number>(doc.errors ?? []);
  if (schema.params || schema.querystring || schema.body) statuses.add(400);
  if (doc.security !== 'public') statuses.add(401);
  if (doc.security === 'bearer') statuses.add(403);
  // ErrorBody is registered by createApp (app.addSchema); OAuth's body is inlined.
  const errorBody = doc.errorBody === 'oauth' ? OAuthErrorBodySchema : { $ref: 'ErrorBody#' };
  const errors = Object.fromEntries([...statuses].sort().map((status) => [status, errorBody]));
  return {
    summary: doc.summary,
    tags: [...doc.tags],
    ...(doc.description ? { description: doc.description } : {}),
    security: doc.security === 'public' ? [] : [{ [doc.security]: [] }],
    ...schema,
    response: { ...errors, ...schema.response },
  } as S;
}
