import { Type } from 'typebox';
import {
  CreateStatusListBodySchema,
  ErrorCode,
  StatusListRecordSchema,
  UpdateStatusListBodySchema,
  type ErrorDetail,
  type StatusListRecord,
} from '@tessera/contracts';
import { AppError, badRequest, conflict, notFound, type App } from '@tessera/service-kit';
import { insertStatusList, findStatusListForUpdate, updateStatusList } from '../db/status-lists.js';
import type { StatusListRow } from '../db/schema.js';
import { checkUpdate } from '../domain/check-update.js';
import { computeEtag } from '../domain/http-caching.js';
import { validateStatusListJwt, type StatusListClaims } from '../domain/validate-status-list-jwt.js';
import { createApiKeyHook } from './api-key-hook.js';
import { parseListId } from './status-list-id.js';
import type { StatusListRouteDeps } from './status-lists.js';

const errorResponses = { 400: { $ref: 'ErrorBody#' }, 401: { $ref: 'ErrorBody#' }, 413: { $ref: 'ErrorBody#' }, 415: { $ref: 'ErrorBody#' } };

/** POST and PATCH: authenticated writes of issuer-signed lists. */
export function registerWriteRoutes(app: App, deps: StatusListRouteDeps): void {
  const { database, cache, config } = deps;
  // Authentication comes first: before the body is parsed or anything is validated.
  app.addHook('onRequest', createApiKeyHook(deps.apiKey));

  const validate = (jwt: string, listId: string): StatusListClaims => {
    const result = validateStatusListJwt({ jwt, listId, maxListBytes: config.MAX_LIST_BYTES });
    if (!result.ok) throw invalidJwt(result.problems);
    return result.claims;
  };

  app.post(
    '/status-lists',
    {
      schema: {
        summary: 'Store a new status list',
        tags: ['status lists'],
        security: [{ apiKey: [] }],
        body: CreateStatusListBodySchema,
        response: { 201: StatusListRecordSchema, 409: { $ref: 'ErrorBody#' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = request.body.id.toLowerCase();
      const jwt = request.body.jwt.trim();
      const claims = validate(jwt, id);
      const etag = computeEtag(jwt);
      const row = await insertStatusList(database.db, { id, jwt, etag, ...facts(claims) });
      if (!row) throw conflict(ErrorCode.STATUS_LIST_EXISTS, `A status list with id ${id} exists already; use PATCH to update it.`);
      cache.set(id, row);
      const location = `${config.PUBLIC_BASE_URL ?? ''}/status-lists/${id}`;
      return reply.code(201).header('location', location).send(toRecord(row));
    },
  );

  app.patch(
    '/status-lists/:list_id',
    {
      schema: {
        summary: 'Replace a status list with a newer token',
        tags: ['status lists'],
        security: [{ apiKey: [] }],
        params: Type.Object({ list_id: Type.String({ description: 'UUID v4 of the list' }) }),
        body: UpdateStatusListBodySchema,
        response: { 200: StatusListRecordSchema, 404: { $ref: 'ErrorBody#' }, 409: { $ref: 'ErrorBody#' }, ...errorResponses },
      },
      // The path id is checked before the body: a malformed id reads as an unknown list (404).
      preValidation: async (request) => {
        parseListId((request.params as { list_id: string }).list_id);
      },
    },
    async (request) => {
      const id = parseListId(request.params.list_id);
      const jwt = request.body.jwt.trim();
      const claims = validate(jwt, id);
      const row = await database.db.transaction(async (tx) => {
        const stored = await findStatusListForUpdate(tx, id);
        if (!stored) throw notFound(`No status list ${id}.`);
        const check = checkUpdate(stored, claims);
        if (!check.ok) throw conflict(check.code, check.message);
        return updateStatusList(tx, id, { jwt, etag: computeEtag(jwt), iat: claims.iat, ...optional(claims) });
      });
      cache.set(id, row);
      return toRecord(row);
    },
  );
}

function invalidJwt(problems: ErrorDetail[]): AppError {
  return badRequest(
    `The status list JWT is invalid: ${problems.map((p) => p.message).join('; ')}.`,
    problems,
    ErrorCode.INVALID_STATUS_LIST_JWT,
  );
}

function optional(claims: StatusListClaims) {
  return { ...(claims.exp !== undefined ? { exp: claims.exp } : {}), ...(claims.ttl !== undefined ? { ttl: claims.ttl } : {}) };
}

function facts(claims: StatusListClaims) {
  return { bits: claims.bits, sub: claims.sub, iat: claims.iat, ...optional(claims) };
}

function toRecord(row: StatusListRow): StatusListRecord {
  return {
    id: row.id,
    bits: row.bits,
    sub: row.sub,
    iat: row.iat,
    ...(row.exp !== null ? { exp: row.exp } : {}),
    ...(row.ttl !== null ? { ttl: row.ttl } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
