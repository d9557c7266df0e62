import { Type } from 'typebox';
import { CreateTrustAnchorBodySchema, TrustAnchorListQuerySchema, TrustAnchorSchema } from '@tessera/contracts';
import { type App, envelope, envelopeOf, pageEnvelopeOf, pageWindow, routeSchema, toPage } from '@tessera/service-kit';
import { toTrustAnchor } from '../presenters/trust-anchor.js';
import { createTrustAnchor, type CreateTrustAnchorDeps } from '../use-cases/create-trust-anchor.js';
import { deleteTrustAnchor } from '../use-cases/delete-trust-anchor.js';
import { listTrustAnchors } from '../use-cases/list-trust-anchors.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['trust anchors'];
const AnchorParamsSchema = Type.Object({
  ...OrgParamsSchema.properties,
  id: Type.String({ minLength: 1, maxLength: 200 }),
});

export type TrustAnchorRouteDeps = CreateTrustAnchorDeps;

/** Which issuers the organisation trusts, besides the platform bundle (VERIFIER.md, Trust anchors). */
export function registerTrustAnchorRoutes(app: App, deps: TrustAnchorRouteDeps): void {
  app.post(
    '/trust-anchors',
    {
      schema: routeSchema(
        {
          summary: 'Trust an issuer CA certificate or DID, or a registrar CA certificate',
          description:
            '`purpose` `issuer` (default): credentials and status lists under it are trusted; `registrar`: registration certificates of the organisation’s verifiers must validate to it (a CA certificate, no credentialTypes). An anchor serves its purpose only; a certificate has one purpose per organisation (409 TRUST_ANCHOR_EXISTS).',
          tags,
          security: MANAGEMENT,
          errors: [409],
        },
        {
          params: OrgParamsSchema,
          body: CreateTrustAnchorBodySchema,
          response: { 201: envelopeOf(TrustAnchorSchema) },
        },
      ),
    },
    async (request, reply) => {
      const row = await createTrustAnchor(deps, { orgId: request.params.orgId, body: request.body });
      return reply.code(201).send(envelope(201, 'Trust anchor added.', toTrustAnchor(row)));
    },
  );

  app.get(
    '/trust-anchors',
    {
      schema: routeSchema(
        { summary: 'List the organisation’s trust anchors, newest first', tags, security: MANAGEMENT },
        {
          params: OrgParamsSchema,
          querystring: TrustAnchorListQuerySchema,
          response: { 200: pageEnvelopeOf(TrustAnchorSchema) },
        },
      ),
    },
    async (request) => {
      const { purpose, ...paging } = request.query;
      const page = pageWindow(paging);
      const { rows, total } = await listTrustAnchors(deps, {
        orgId: request.params.orgId,
        page,
        ...(purpose ? { purpose } : {}),
      });
      return envelope(200, 'Trust anchors.', toPage(rows.map(toTrustAnchor), total, page));
    },
  );

  app.delete(
    '/trust-anchors/:id',
    {
      schema: routeSchema(
        {
          summary: 'Stop trusting an anchor (applies to the next verification)',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: AnchorParamsSchema, response: { 200: envelopeOf(TrustAnchorSchema) } },
      ),
    },
    async (request) =>
      envelope(200, 'Trust anchor deleted.', toTrustAnchor(await deleteTrustAnchor(deps, request.params))),
  );
}
