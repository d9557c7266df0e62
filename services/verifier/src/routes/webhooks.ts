import { Type } from 'typebox';
import {
  ErrorCode,
  PagingQuerySchema,
  PutWebhookBodySchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '@tessera/contracts';
import {
  type App,
  AppError,
  envelope,
  envelopeOf,
  hasOrgRole,
  pageEnvelopeOf,
  pageWindow,
  principalOf,
  routeSchema,
  toPage,
} from '@tessera/service-kit';
import type { FastifyRequest } from 'fastify';
import { toWebhook, toWebhookDelivery, toWebhookWithSecret } from '../presenters/webhook.js';
import { deleteWebhook, type DeleteWebhookDeps } from '../use-cases/delete-webhook.js';
import { getWebhook, type GetWebhookDeps } from '../use-cases/get-webhook.js';
import { listWebhookDeliveries, type ListWebhookDeliveriesDeps } from '../use-cases/list-webhook-deliveries.js';
import { putWebhook, type PutWebhookDeps } from '../use-cases/put-webhook.js';
import {
  redeliverWebhookDelivery,
  type RedeliverWebhookDeliveryDeps,
} from '../use-cases/redeliver-webhook-delivery.js';
import { rotateWebhookSecret, type RotateWebhookSecretDeps } from '../use-cases/rotate-webhook-secret.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

// Path ids are checked loosely here (any verifierId the verifier routes take); an
// unknown one is a 404 from the use case, as on the verifier routes.
const WebhookParamsSchema = Type.Object({
  ...OrgParamsSchema.properties,
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
});
const DeliveryParamsSchema = Type.Object({
  ...WebhookParamsSchema.properties,
  deliveryId: Type.String({ format: 'uuid' }),
});
const tags = ['webhooks'];

/** Who may say where a webhook's events go (create it, change its url): not the verifier role (issue 28, item 4). */
export const WEBHOOK_TARGET_ROLES = ['owner', 'admin'] as const;

export type WebhookRouteDeps = PutWebhookDeps &
  GetWebhookDeps &
  DeleteWebhookDeps &
  RotateWebhookSecretDeps &
  ListWebhookDeliveriesDeps &
  RedeliverWebhookDeliveryDeps & {
    /** Redeliveries per organisation and minute (WEBHOOK_REDELIVER_LIMIT), all replicas together. */
    redeliverLimit: number;
  };

const REDELIVER_WINDOW_MS = 60_000;

const SIGNING =
  'Each event is POSTed as JSON `{ type, id, sessionId, verifierId, state, occurredAt }` signed per Standard Webhooks: `webhook-id` (the event id), `webhook-timestamp` (seconds), `webhook-signature: v1,<base64 HMAC-SHA256 over "{id}.{timestamp}.{body}" keyed with the base64-decoded secret after whsec_>`. Any 2xx is success; otherwise retried with exponential backoff and jitter (WEBHOOK_RETRY_BASE_MS, doubling, capped at WEBHOOK_RETRY_MAX_DELAY_MS) for WEBHOOK_RETRY_PERIOD_MS (24 h), then marked failed.';

export function registerWebhookRoutes(app: App, deps: WebhookRouteDeps): void {
  app.put(
    '/verifier/:verifierId/webhook',
    {
      schema: routeSchema(
        {
          summary: "Create or change a verifier's webhook",
          description: `Creates the webhook with a new secret (201, the secret shown this once), or changes url and events of the existing one keeping its secret (200, never the secret: only creation and rotate-secret show it). Creating a webhook or changing its url needs the owner or admin role (403 otherwise); the verifier role may change the events of a webhook whose url stays the same. ${SIGNING}`,
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        {
          params: WebhookParamsSchema,
          body: PutWebhookBodySchema,
          response: { 200: envelopeOf(WebhookSchema), 201: envelopeOf(WebhookWithSecretSchema) },
        },
      ),
    },
    async (request, reply) => {
      const saved = await putWebhook(deps, {
        ...request.params,
        ...request.body,
        mayChangeTarget: hasOrgRole(principalOf(request), request.params.orgId, WEBHOOK_TARGET_ROLES),
      });
      if (saved.kind === 'created')
        return reply.code(201).send(envelope(201, 'Webhook created.', toWebhookWithSecret(saved)));
      return envelope(200, 'Webhook saved.', toWebhook(saved.verifier, saved.webhook));
    },
  );

  app.get(
    '/verifier/:verifierId/webhook',
    {
      schema: routeSchema(
        { summary: "Get a verifier's webhook (never its secret)", tags, security: MANAGEMENT, errors: [404] },
        { params: WebhookParamsSchema, response: { 200: envelopeOf(WebhookSchema) } },
      ),
    },
    async (request) => {
      const { verifier, webhook } = await getWebhook(deps, request.params);
      return envelope(200, 'Webhook.', toWebhook(verifier, webhook));
    },
  );

  app.delete(
    '/verifier/:verifierId/webhook',
    {
      schema: routeSchema(
        { summary: "Delete a verifier's webhook and its deliveries", tags, security: MANAGEMENT, errors: [404] },
        { params: WebhookParamsSchema, response: { 200: envelopeOf(WebhookSchema) } },
      ),
    },
    async (request) => {
      const { verifier, webhook } = await deleteWebhook(deps, request.params);
      return envelope(200, 'Webhook deleted.', toWebhook(verifier, webhook));
    },
  );

  app.post(
    '/verifier/:verifierId/webhook/rotate-secret',
    {
      schema: routeSchema(
        {
          summary: "Replace a webhook's secret",
          description:
            'A new secret signs every attempt from now on (pending retries included); the old one signs nothing more.',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: WebhookParamsSchema, response: { 200: envelopeOf(WebhookWithSecretSchema) } },
      ),
    },
    async (request) =>
      envelope(200, 'Webhook secret rotated.', toWebhookWithSecret(await rotateWebhookSecret(deps, request.params))),
  );

  app.get(
    '/verifier/:verifierId/webhook/deliveries',
    {
      schema: routeSchema(
        {
          summary: "List a webhook's deliveries",
          description:
            'Newest first, each with its last 50 attempts (time, HTTP status or network error, duration), oldest first.',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        {
          params: WebhookParamsSchema,
          querystring: PagingQuerySchema,
          response: { 200: pageEnvelopeOf(WebhookDeliverySchema) },
        },
      ),
    },
    async (request) => {
      const page = pageWindow(request.query);
      const { rows, total } = await listWebhookDeliveries(deps, { ...request.params, page });
      return envelope(200, 'Webhook deliveries.', toPage(rows.map(toWebhookDelivery), total, page));
    },
  );

  app.post(
    '/verifier/:verifierId/webhook/deliveries/:deliveryId/redeliver',
    {
      schema: routeSchema(
        {
          summary: 'Send a delivery again',
          description:
            'The delivery becomes pending and due now, with a fresh retry period; the event id (`webhook-id`) is unchanged. ' +
            'At most WEBHOOK_REDELIVER_LIMIT (60) per organisation and minute, all verifiers and replicas together: past it 429 RATE_LIMITED with Retry-After.',
          tags,
          security: MANAGEMENT,
          errors: [404, 429],
        },
        { params: DeliveryParamsSchema, response: { 200: envelopeOf(WebhookDeliverySchema) } },
      ),
      // Per organisation, counted once the caller is authorised (preHandler, after the token
      // and role checks): a stranger cannot use up an organisation's redeliveries.
      config: {
        rateLimit: {
          max: deps.redeliverLimit,
          timeWindow: REDELIVER_WINDOW_MS,
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `org ${(request.params as { orgId: string }).orgId}`,
          errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
            new AppError(
              429,
              ErrorCode.RATE_LIMITED,
              `Too many redeliveries for this organisation: retry after ${Math.ceil(context.ttl / 1000)} s.`,
            ),
        },
      },
    },
    async (request) =>
      envelope(
        200,
        'Webhook delivery queued.',
        toWebhookDelivery(await redeliverWebhookDelivery(deps, request.params)),
      ),
  );
}
