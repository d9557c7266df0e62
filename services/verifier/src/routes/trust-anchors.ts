import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { CreateTrustAnchorBodySchema, ErrorCode, PagingQuerySchema, TrustAnchorErrorCode, TrustAnchorSchema, type TrustAnchor } from '@tessera/contracts';
import { badRequest, conflict, envelope, isUuid, notFound, pageWindow, splitPemCertificates, toPage, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import type { TrustAnchorRow } from '../db/schema.js';
import { deleteTrustAnchor, insertTrustAnchor, listTrustAnchors } from '../db/trust-anchors.js';
import { parseTrustAnchor } from '../verification/parse-trust-anchor.js';
import { envelopeOf, errorResponses, OrgParamsSchema, pageEnvelopeOf } from './common.js';

const tags = ['trust anchors'];
const AnchorParamsSchema = Type.Object({ ...OrgParamsSchema.properties, id: Type.String({ minLength: 1, maxLength: 200 }) });

export function toTrustAnchor(row: TrustAnchorRow): TrustAnchor {
  return {
    id: row.id,
    label: row.label,
    kind: row.kind as TrustAnchor['kind'],
    subject: row.subject,
    ...(row.notAfter ? { notAfter: row.notAfter.toISOString() } : {}),
    fingerprint: row.fingerprint,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Which issuers the organisation trusts, besides the platform bundle (VERIFIER.md, Trust anchors). */
export function registerTrustAnchorRoutes(app: App, ctx: VerifierContext): void {
  app.post(
    '/trust-anchors',
    { schema: { tags, summary: 'Trust an issuer CA certificate or DID', params: OrgParamsSchema, body: CreateTrustAnchorBodySchema, response: { 201: envelopeOf(TrustAnchorSchema), ...errorResponses(400, 409) } } },
    async (request, reply) => {
      const { orgId } = request.params;
      const body = request.body;
      const isDid = 'did' in body;
      const parsed = parseTrustAnchor(isDid ? { did: body.did } : { certificatePem: body.certificatePem });
      if (!parsed.ok) throw badRequest(`The trust anchor is not acceptable: ${parsed.message}.`, [{ path: isDid ? '/did' : '/certificatePem', message: parsed.message }]);
      const { anchor } = parsed;
      const row = await insertTrustAnchor(ctx.db, {
        id: randomUUID(),
        orgId,
        kind: anchor.kind,
        label: body.label ?? null,
        subject: anchor.subject,
        notAfter: anchor.kind === 'certificate' ? new Date(anchor.notAfter) : null,
        fingerprint: anchor.fingerprint,
        // Only the one certificate that was checked is kept, whatever else the text held.
        certificatePem: isDid ? null : splitPemCertificates(body.certificatePem)[0]!,
        did: isDid ? body.did : null,
        createdAt: ctx.now(),
      });
      if (!row) throw conflict(TrustAnchorErrorCode.TRUST_ANCHOR_EXISTS, `The organisation already trusts this ${anchor.kind === 'did' ? 'DID' : 'certificate'} (fingerprint ${anchor.fingerprint}).`);
      return reply.code(201).send(envelope(201, 'Trust anchor added.', toTrustAnchor(row)));
    },
  );

  app.get(
    '/trust-anchors',
    { schema: { tags, summary: 'List the organisation’s trust anchors, newest first', params: OrgParamsSchema, querystring: PagingQuerySchema, response: { 200: pageEnvelopeOf(TrustAnchorSchema), ...errorResponses(400) } } },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listTrustAnchors(ctx.db, { orgId: request.params.orgId, limit: window.pageSize, offset: window.offset });
      return envelope(200, 'Trust anchors.', toPage(rows.map(toTrustAnchor), total, window));
    },
  );

  app.delete(
    '/trust-anchors/:id',
    { schema: { tags, summary: 'Stop trusting an anchor (applies to the next verification)', params: AnchorParamsSchema, response: { 200: envelopeOf(TrustAnchorSchema), ...errorResponses(404) } } },
    async (request) => {
      const { orgId, id } = request.params;
      const row = isUuid(id) ? await deleteTrustAnchor(ctx.db, { orgId, id }) : undefined;
      if (!row) throw notFound('The organisation has no trust anchor with this id.', ErrorCode.NOT_FOUND);
      return envelope(200, 'Trust anchor deleted.', toTrustAnchor(row));
    },
  );
}
