import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorBody, type App } from '@tessera/service-kit';
import type { VNode } from 'preact';
import type { ServiceProblem, ServiceResult } from '../domain/service-problem.js';
import type { NavPlace, PageContext } from '../presenters/page-context.js';
import { ErrorPage, titleOfStatus } from '../presenters/pages/error-page.js';
import { formValues, pageContext, pageSchema, problemFlash, sendPage } from './web-session.js';

// Errors of the page routes answer as pages, not as the services' JSON error body:
// a person reads them. A refused form (its schema, a stale anti-forgery token) goes
// back to the page it came from with the problem, when that page is the console's.

/** Renders a service's problem as the page (401 sends the person to sign in again). */
export function sendProblemPage(request: FastifyRequest, reply: FastifyReply, problem: ServiceProblem): FastifyReply {
  if (problem.status === 401) return reply.redirect(`/sign-in?returnTo=${encodeURIComponent(request.url)}`, 303);
  const status = problem.status >= 400 && problem.status < 600 ? problem.status : 502;
  return sendPage(
    reply,
    ErrorPage({
      context: pageContext(request, reply, { area: 'home' }),
      status,
      title: titleOfStatus(status),
      message: problem.message,
      code: problem.code,
    }),
    status,
  );
}

/**
 * A page from what its use case loaded, framed at `place` (which may depend on what was
 * loaded), or the page of the problem a service answered. The frame's context is made
 * only for the page sent: it takes the flash, which is shown once.
 */
export function answerPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  loaded: ServiceResult<T>,
  place: NavPlace | ((value: T) => NavPlace),
  render: (value: T, context: PageContext) => VNode,
): FastifyReply {
  if (!loaded.ok) return sendProblemPage(request, reply, loaded.problem);
  const at = typeof place === 'function' ? place(loaded.value) : place;
  return sendPage(reply, render(loaded.value, pageContext(request, reply, at)));
}

/** The page scope's error handler and its not-found page. */
export function installPageErrors(app: App, publicOrigin: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const csrf = error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET';
    const { body } = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: csrf ? 'CSRF' : body.code, statusCode: body.statusCode }, body.message);
    const message = csrf
      ? 'This form did not come from your current console session (it may have expired, or another site sent it). Nothing was changed: reload the page and try again.'
      : body.message;
    const back = sameOriginReferer(request, publicOrigin);
    if (request.consoleSession && back && request.method === 'POST' && body.statusCode < 500) {
      request.consoleSession.setFlash(
        problemFlash(
          { code: csrf ? 'FORBIDDEN' : body.code, message, ...(body.details ? { details: body.details } : {}) },
          csrf ? undefined : formValues(request.body),
        ),
      );
      return reply.redirect(back, 303);
    }
    return sendPage(
      reply,
      ErrorPage({
        context: pageContext(request, reply, { area: 'home' }),
        status: body.statusCode,
        title: titleOfStatus(body.statusCode),
        message,
        code: csrf ? 'FORBIDDEN' : body.code,
      }),
      body.statusCode,
    );
  });
  // Any GET no route answers: a page, not JSON.
  app.get('/*', { schema: pageSchema() }, async (request, reply) =>
    sendPage(
      reply,
      ErrorPage({
        context: pageContext(request, reply, { area: 'home' }),
        status: 404,
        title: titleOfStatus(404),
        message: `There is no page at ${request.url.split('?')[0]}.`,
        code: 'NOT_FOUND',
      }),
      404,
    ),
  );
}

/** The page a form came from, when it is one of the console's own (never a redirect to another site). */
function sameOriginReferer(request: FastifyRequest, publicOrigin: string): string | undefined {
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return url.origin === publicOrigin ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}
