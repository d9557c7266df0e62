import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { DcApiProtocolSchema, ResponseModeSchema, SessionStateSchema } from '@tessera/contracts';
import { startEventStream, type App } from '@tessera/service-kit';
import type { Clock } from '@tessera/service-kit';
import { orderedDcApiProtocols } from '../domain/dc-api-protocol-choices.js';
import { parseTransactionData, requestSignerOf } from '../domain/request-options.js';
import type { SessionFilter, SessionWindow } from '../domain/session-filter.js';
import { STATE_RANK } from '../domain/session-timeline.js';
import { can } from '../domain/signed-in-user.js';
import { SessionLive } from '../presenters/components/session-live.js';
import { SessionRow } from '../presenters/components/session-row.js';
import { describeState } from '../presenters/components/session-state.js';
import { NewRequestPage } from '../presenters/pages/new-request-page.js';
import { SessionPage, type SessionPageClaims } from '../presenters/pages/session-page.js';
import { SessionsPage } from '../presenters/pages/sessions-page.js';
import { qrCodeSvg } from '../presenters/qr-code.js';
import { renderFragment } from '../presenters/render-document.js';
import {
  createPresentationRequest,
  type CreatePresentationRequestDeps,
  type RequestSource,
} from '../use-cases/create-presentation-request.js';
import { findSession, type FindSessionDeps } from '../use-cases/find-session.js';
import { followSessionList, type FollowSessionListDeps } from '../use-cases/follow-session-list.js';
import { followSession, type FollowSessionDeps } from '../use-cases/follow-session.js';
import { loadRequestForm, type LoadRequestFormDeps } from '../use-cases/load-request-form.js';
import { loadSession, type LoadSessionDeps } from '../use-cases/load-session.js';
import { loadSessions, type LoadSessionsDeps } from '../use-cases/load-sessions.js';
import { readSessionClaims, type ReadSessionClaimsDeps } from '../use-cases/read-session-claims.js';
import { answerPage } from './page-errors.js';
import {
  answerForm,
  csrfTokenFor,
  formValues,
  listOf,
  OrgParams,
  orgPath,
  pageSchema,
  problemFlash,
  requireSignIn,
  sessionOf,
} from './web-session.js';

export type SessionRouteDeps = LoadSessionsDeps &
  FollowSessionListDeps &
  LoadSessionDeps &
  FollowSessionDeps &
  FindSessionDeps &
  ReadSessionClaimsDeps &
  LoadRequestFormDeps &
  CreatePresentationRequestDeps & {
    clock: Clock;
    /** `: heartbeat` on the console's event streams. */
    heartbeatMs: number;
  };

const SessionParams = Type.Object({
  ...OrgParams.properties,
  sessionId: Type.String({ minLength: 1, maxLength: 100 }),
});
const ListQuery = Type.Object({
  verifier: Type.Optional(Type.String({ maxLength: 200 })),
  state: Type.Optional(Type.Union([SessionStateSchema, Type.Literal('')])),
  window: Type.Union([Type.Literal('hour'), Type.Literal('day'), Type.Literal('week'), Type.Literal('all')], {
    default: 'day',
  }),
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
});
const sessionPath = (orgId: string, sessionId: string, rest = '') =>
  orgPath(orgId, `/sessions/${encodeURIComponent(sessionId)}${rest}`);
/** A console event stream ends after this, and the browser reconnects (its session's tokens renewed on the way). */
const STREAM_MAX_MS = 10 * 60_000;

function filterOf(query: { verifier?: string; state?: string; window: SessionWindow }): SessionFilter {
  return {
    ...(query.verifier ? { verifierId: query.verifier } : {}),
    ...(query.state ? { state: query.state as SessionFilter['state'] } : {}),
    window: query.window,
  };
}

/** Presentation sessions: the live list, a new request, one session's live timeline, its claims and read audit. */
export function registerSessionRoutes(app: App, deps: SessionRouteDeps): void {
  app.get(
    '/orgs/:orgId/sessions',
    { schema: pageSchema({ params: OrgParams, querystring: ListQuery }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const filter = filterOf(request.query);
      const list = await loadSessions(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        filter,
        pageNumber: request.query.page,
      });
      return answerPage(request, reply, list, { area: 'organisation', orgId, item: 'sessions' }, (value, context) =>
        SessionsPage({
          context,
          orgId,
          filter,
          list: value,
        }),
      );
    },
  );

  app.get(
    '/orgs/:orgId/sessions/stream',
    {
      schema: pageSchema({
        params: OrgParams,
        querystring: Type.Object({ ...ListQuery.properties, shown: Type.Optional(Type.String({ maxLength: 20000 })) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      // What the page shows: `id:state,…`, so only changes are sent.
      const shown = new Map(
        (request.query.shown ?? '')
          .split(',')
          .map((entry) => entry.split(':'))
          .filter((pair): pair is [string, string] => pair.length === 2),
      );
      const stream = startEventStream(request, reply, { heartbeatMs: deps.heartbeatMs, maxDurationMs: STREAM_MAX_MS });
      const controller = new AbortController();
      void stream.ended.then(() => controller.abort());
      await followSessionList(deps, {
        token: request.currentAccessToken,
        orgId,
        filter: filterOf(request.query),
        shown,
        signal: controller.signal,
        onChange: (session) =>
          stream.send({
            event: 'session',
            data: JSON.stringify({
              id: session.id,
              state: session.state,
              summary: `Session ${session.id.slice(0, 8)} of ${session.publicVerifierId}: ${describeState(session)}`,
              html: renderFragment(SessionRow({ orgId, session })),
            }),
          }),
      });
      stream.end('complete');
    },
  );

  /** A session's page (its read audit for those who may audit reads), with the claims just read, if any. */
  async function answerSessionPage(
    request: FastifyRequest & { params: Static<typeof SessionParams> },
    reply: FastifyReply,
    claims?: SessionPageClaims,
  ): Promise<FastifyReply> {
    const { orgId, sessionId } = request.params;
    const session = sessionOf(request);
    const view = await loadSession(deps, {
      token: session.accessToken,
      orgId,
      sessionId,
      auditReads: can.auditReads(session.user.orgRoles[orgId] ?? []),
    });
    return answerPage(request, reply, view, { area: 'organisation', orgId, item: 'sessions' }, (value, context) =>
      SessionPage({ context, orgId, view: value, ...(claims ? { claims } : {}) }),
    );
  }

  app.get(
    '/orgs/:orgId/sessions/new',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const form = await loadRequestForm(deps, { token: sessionOf(request).accessToken, orgId });
      return answerPage(request, reply, form, { area: 'organisation', orgId, item: 'sessions' }, (value, context) =>
        NewRequestPage({
          context,
          orgId,
          form: value,
        }),
      );
    },
  );

  app.post(
    '/orgs/:orgId/sessions',
    {
      schema: pageSchema({
        params: OrgParams,
        body: Type.Object({
          verifierId: Type.String({ maxLength: 200 }),
          source: Type.Union([Type.Literal('template'), Type.Literal('intent')]),
          templateId: Type.Optional(Type.String({ maxLength: 100 })),
          intent: Type.Optional(Type.String({ maxLength: 400 })),
          responseMode: ResponseModeSchema,
          expectedOrigins: Type.Optional(Type.String({ maxLength: 20000 })),
          expiresInSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 86400 }), Type.Literal('')])),
          dcApiProtocols: Type.Optional(
            Type.Union([DcApiProtocolSchema, Type.Array(DcApiProtocolSchema, { maxItems: 4 })]),
          ),
          // Advanced options: sent to the verifier as given (empty: not sent), which judges them.
          payloadState: Type.Optional(Type.String({ maxLength: 600 })),
          signerMethod: Type.Optional(
            Type.Union([
              Type.Literal(''),
              Type.Literal('DID'),
              Type.Literal('X509_P256'),
              Type.Literal('X509_ED25519'),
            ]),
          ),
          clientIdPrefix: Type.Optional(
            Type.Union([Type.Literal(''), Type.Literal('x509_hash'), Type.Literal('x509_san_dns')]),
          ),
          presentationDataTtlSeconds: Type.Optional(
            Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Literal('')]),
          ),
          transactionData: Type.Optional(Type.String({ maxLength: 20000 })),
          redirectUri: Type.Optional(Type.String({ maxLength: 2100 })),
          ecosystemId: Type.Optional(Type.String({ maxLength: 100 })),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const body = request.body;
      const back = orgPath(orgId, '/sessions/new');
      const [ecosystemId = '', intent = ''] = (body.intent ?? '').split('|');
      const trustEcosystemId = body.ecosystemId ?? '';
      const source: RequestSource | undefined =
        body.source === 'intent'
          ? ecosystemId && intent
            ? { kind: 'intent', ecosystemId, intent }
            : undefined
          : body.templateId
            ? {
                kind: 'template',
                templateId: body.templateId,
                ...(trustEcosystemId ? { ecosystemId: trustEcosystemId } : {}),
              }
            : undefined;
      const transactionData = parseTransactionData(body.transactionData ?? '');
      // What the console can say before any call: the field's own syntax, and an ecosystem named for an intent
      // (an intent is verified under its own ecosystem's trust policy; the intent body has no ecosystemId).
      const early =
        'problem' in transactionData
          ? { message: 'The transaction data is not a JSON array of objects.', detail: transactionData.problem }
          : body.source === 'intent' && trustEcosystemId
            ? {
                message: "A request by intent is verified under its ecosystem's trust policy.",
                detail: { path: '/ecosystemId', message: 'applies to a request from a template only' },
              }
            : undefined;
      if (source && early) {
        sessionOf(request).setFlash(
          problemFlash(
            { code: 'VALIDATION_FAILED', message: early.message, details: [early.detail] },
            formValues(body),
          ),
        );
        return reply.redirect(back, 303);
      }
      if (!source) {
        sessionOf(request).setFlash(
          problemFlash(
            {
              code: 'VALIDATION_FAILED',
              message: body.source === 'intent' ? 'Choose an intent.' : 'Choose a template.',
            },
            formValues(body),
          ),
        );
        return reply.redirect(back, 303);
      }
      const origins = (body.expectedOrigins ?? '').split(/\s+/).filter(Boolean);
      const signer = requestSignerOf(body.signerMethod ?? '', body.clientIdPrefix ?? '');
      const result = await createPresentationRequest(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId: body.verifierId,
        source,
        responseMode: body.responseMode,
        ...(origins.length > 0 ? { expectedOrigins: origins } : {}),
        ...(typeof body.expiresInSeconds === 'number' ? { expiresInSeconds: body.expiresInSeconds } : {}),
        dcApiProtocols: orderedDcApiProtocols(listOf(body.dcApiProtocols)),
        ...(body.payloadState ? { payloadState: body.payloadState } : {}),
        ...(signer ? { requestSigner: signer } : {}),
        ...(typeof body.presentationDataTtlSeconds === 'number'
          ? { presentationDataTtlSeconds: body.presentationDataTtlSeconds }
          : {}),
        ...('value' in transactionData && transactionData.value ? { transactionData: transactionData.value } : {}),
        ...(body.redirectUri ? { redirectUri: body.redirectUri } : {}),
      });
      return answerForm(request, reply, result, {
        back,
        success: (session) =>
          session.authorizationRequestUri
            ? 'The request is ready: show the QR code to the wallet, or open the link on this device.'
            : 'The request is ready for the browser (Digital Credentials API).',
        next: (session) => sessionPath(orgId, session.id),
        values: formValues(body),
      });
    },
  );

  app.get(
    '/orgs/:orgId/sessions/:sessionId',
    { schema: pageSchema({ params: SessionParams }), preHandler: requireSignIn },
    async (request, reply) => answerSessionPage(request, reply),
  );

  app.get(
    '/orgs/:orgId/sessions/:sessionId/stream',
    {
      schema: pageSchema({
        params: SessionParams,
        querystring: Type.Object({ rank: Type.Integer({ minimum: 1, maximum: 3, default: 1 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, sessionId } = request.params;
      const lastEventId = Number(request.headers['last-event-id']);
      const shownRank =
        Number.isInteger(lastEventId) && lastEventId >= 1 && lastEventId <= 3 ? lastEventId : request.query.rank;
      // Nothing can follow a terminal state: 204 tells an EventSource to stop reconnecting.
      if (shownRank >= STATE_RANK.ResponseVerified) return reply.code(204).send();
      const session = sessionOf(request);
      // Before the reply is hijacked by the stream: the fragments carry the form that reads the claims.
      const csrfToken = csrfTokenFor(request, reply);
      const stream = startEventStream(request, reply, { heartbeatMs: deps.heartbeatMs, maxDurationMs: STREAM_MAX_MS });
      const controller = new AbortController();
      void stream.ended.then(() => controller.abort());
      await followSession(deps, {
        token: request.currentAccessToken,
        orgId,
        sessionId,
        shownRank,
        auditReads: can.auditReads(session.user.orgRoles[orgId] ?? []),
        signal: controller.signal,
        onChange: (view) =>
          stream.send({
            id: String(STATE_RANK[view.session.state]),
            event: 'session',
            data: JSON.stringify({
              state: view.session.state,
              summary: `The session is now ${describeState(view.session)}.`,
              html: renderFragment(SessionLive({ orgId, view, csrfToken })),
            }),
          }),
      });
      stream.end('complete');
    },
  );

  app.get(
    '/orgs/:orgId/sessions/:sessionId/qr.svg',
    { schema: pageSchema({ params: SessionParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, sessionId } = request.params;
      const session = await findSession(deps, { token: sessionOf(request).accessToken, orgId, sessionId });
      if (!session.ok)
        return reply.code(session.problem.status).type('text/plain; charset=utf-8').send(session.problem.message);
      if (!session.value.authorizationRequestUri)
        return reply.code(404).type('text/plain; charset=utf-8').send('This session has no request address (DC API).');
      return reply
        .header('cache-control', 'no-store')
        .type('image/svg+xml')
        .send(await qrCodeSvg(session.value.authorizationRequestUri));
    },
  );

  app.post(
    '/orgs/:orgId/sessions/:sessionId/claims',
    { schema: pageSchema({ params: SessionParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, sessionId } = request.params;
      const claims = await readSessionClaims(deps, { token: sessionOf(request).accessToken, orgId, sessionId });
      // The page is loaded after the read, so its read audit lists it. Claims are shown in
      // this answer only: never kept by the console, not even for one redirect.
      return answerSessionPage(request, reply, claims.ok ? { response: claims.value } : { problem: claims.problem });
    },
  );
}
