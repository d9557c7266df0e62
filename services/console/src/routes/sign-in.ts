import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { safeReturnPath } from '../domain/console-session.js';
import { parseDevelopmentClaims } from '../domain/development-claims.js';
import { SignInPage } from '../presenters/pages/sign-in-page.js';
import { finishSignIn, type FinishSignInDeps } from '../use-cases/finish-sign-in.js';
import { signInForDevelopment, type SignInForDevelopmentDeps } from '../use-cases/sign-in-for-development.js';
import { signOut, type SignOutDeps } from '../use-cases/sign-out.js';
import { startSignIn, type StartSignInDeps } from '../use-cases/start-sign-in.js';
import { formValues, pageContext, pageSchema, sendPage, sessionCookieOf, signInCookieOf } from './web-session.js';

export interface SignInRouteDeps {
  /** The provider's sign-in, when OIDC_ISSUER is set. */
  oidc?: StartSignInDeps & FinishSignInDeps;
  /** The development sign-in, in development mode only. */
  development?: SignInForDevelopmentDeps;
  signOut: SignOutDeps;
  publicBaseUrl: string;
}

const ReturnTo = Type.Object({ returnTo: Type.Optional(Type.String({ maxLength: 2048 })) });

/** Sign-in (the provider's authorization code flow, or the development key), its callback, and sign-out. */
export function registerSignInRoutes(app: App, deps: SignInRouteDeps): void {
  app.get(
    '/sign-in',
    {
      schema: pageSchema({
        querystring: Type.Object({
          returnTo: Type.Optional(Type.String({ maxLength: 2048 })),
          problem: Type.Optional(Type.String({ maxLength: 50 })),
          signedOut: Type.Optional(Type.String({ maxLength: 5 })),
        }),
      }),
    },
    async (request, reply) => {
      const returnTo = safeReturnPath(request.query.returnTo);
      if (request.consoleSession && !request.query.problem) return reply.redirect(returnTo, 303);
      return sendPage(
        reply,
        SignInPage({
          context: pageContext(request, reply, { area: 'sign-in' }),
          returnTo,
          oidc: !!deps.oidc,
          development: !!deps.development,
          ...(request.query.problem ? { problem: request.query.problem } : {}),
          signedOut: request.query.signedOut === 'true',
        }),
      );
    },
  );

  const oidc = deps.oidc;
  if (oidc) {
    app.get('/sign-in/start', { schema: pageSchema({ querystring: ReturnTo }) }, async (request, reply) => {
      const started = await startSignIn(oidc, {
        returnTo: request.query.returnTo,
        pendingCookie: signInCookieOf(request, reply),
      });
      if (!started.ok) return reply.redirect(`/sign-in?problem=${started.reason}`, 303);
      return reply.redirect(started.authorizationUrl, 303);
    });
    app.get('/auth/callback', { schema: pageSchema() }, async (request, reply) => {
      const finished = await finishSignIn(oidc, {
        callbackUrl: new URL(request.url, deps.publicBaseUrl),
        pendingCookie: signInCookieOf(request, reply),
        sessionCookie: sessionCookieOf(request, reply),
        ...(request.consoleSession ? { replacing: request.consoleSession.id } : {}),
      });
      if (!finished.ok) {
        request.log.warn(
          { reason: finished.reason, ...('detail' in finished ? { detail: finished.detail } : {}) },
          'sign-in not finished',
        );
        return reply.redirect(`/sign-in?problem=${finished.reason}`, 303);
      }
      return reply.redirect(finished.returnTo, 303);
    });
  }

  const development = deps.development;
  if (development) {
    app.post(
      '/sign-in/development',
      {
        schema: pageSchema({
          body: Type.Object({
            sub: Type.Optional(Type.String({ maxLength: 200 })),
            email: Type.Optional(Type.String({ maxLength: 320 })),
            organisations: Type.Optional(Type.String({ maxLength: 10000 })),
            platformAdmin: Type.Optional(Type.String({ maxLength: 10 })),
            returnTo: Type.Optional(Type.String({ maxLength: 2048 })),
          }),
        }),
      },
      async (request, reply) => {
        const parsed = parseDevelopmentClaims(request.body);
        if (!parsed.ok) {
          return sendPage(
            reply,
            SignInPage({
              context: {
                ...pageContext(request, reply, { area: 'sign-in' }),
                flash: {
                  kind: 'problem',
                  message: 'The sign-in form has problems: see each field.',
                  details: parsed.details,
                  values: formValues(request.body),
                },
              },
              returnTo: safeReturnPath(request.body.returnTo),
              oidc: !!deps.oidc,
              development: true,
            }),
            400,
          );
        }
        await signInForDevelopment(development, {
          claims: parsed.claims,
          sessionCookie: sessionCookieOf(request, reply),
          ...(request.consoleSession ? { replacing: request.consoleSession.id } : {}),
        });
        return reply.redirect(safeReturnPath(request.body.returnTo), 303);
      },
    );
  }

  app.post('/sign-out', { schema: pageSchema() }, async (request, reply) => {
    const { redirectTo } = await signOut(deps.signOut, {
      sessionCookie: sessionCookieOf(request, reply),
      signedOutUrl: `${deps.publicBaseUrl}/sign-in?signedOut=true`,
    });
    return reply.redirect(redirectTo, 303);
  });
}
