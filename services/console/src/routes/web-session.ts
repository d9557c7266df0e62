import { createHash } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import type { Flash, SessionHandle } from '../domain/console-session.js';
import type { ServiceProblem, ServiceResult } from '../domain/service-problem.js';
import type { NavPlace, PageContext } from '../presenters/page-context.js';
import { renderDocument } from '../presenters/render-document.js';
import { resumeSession, type ResumeSessionDeps } from '../use-cases/resume-session.js';
import type { CookieSlot } from '../domain/cookie-slot.js';

// The browser's side of a session: the session itself, sealed (AES-256-GCM, see
// crypto/cookie-seal.ts) into an HttpOnly, Secure, SameSite=Lax cookie that any replica
// opens; and an anti-forgery token on every state-changing request: a synchronizer token
// bound to the session id (@fastify/csrf-protection, its secret in a signed cookie).

/** `__Host-`: the browser keeps it only when Secure, Path=/ and without Domain, so no subdomain can plant or read it. */
export const SESSION_COOKIE = '__Host-tessera-session';
export const SIGN_IN_COOKIE = '__Host-tessera-sign-in';
export const FLASH_COOKIE = '__Host-tessera-flash';
const CSRF_COOKIE = '__Host-tessera-csrf';

const COOKIE_OPTIONS = { path: '/', secure: true, httpOnly: true, sameSite: 'lax' } as const;
/** Characters of a sealed value per cookie: a browser keeps 4096 bytes of name and value. */
const CHUNK_LENGTH = 3800;
/** A sealed value spans at most this many cookies (`NAME`, `NAME.1`, …). */
const MAX_CHUNKS = 4;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, when the request carries a live one. */
    consoleSession: SessionHandle | null;
    /**
     * The session's access token for a call made later in a long request (an event
     * stream) while it needs no renewal; undefined after, and the stream ends (the
     * browser reconnects, and the new request renews and carries the new cookie back).
     */
    currentAccessToken: () => Promise<string | undefined>;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface WebSessionOptions {
  /** Signs the anti-forgery cookie and keys its tokens (SESSION_SECRET). */
  secret: string;
  bodyLimit: number;
  resume: ResumeSessionDeps;
}

/** Cookies, form bodies, the session of each request and the anti-forgery check of every unsafe method. */
export async function installWebSession(app: App, options: WebSessionOptions): Promise<void> {
  await app.register(fastifyCookie, { secret: options.secret });
  await app.register(fastifyFormbody, { bodyLimit: options.bodyLimit });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { ...COOKIE_OPTIONS, sameSite: 'strict', signed: true },
    csrfOpts: { hmacKey: createHash('sha256').update(`tessera-console-csrf:${options.secret}`).digest() },
    // A token is good for this session only: a token from before sign-in does not survive it.
    getUserInfo: csrfUserInfo,
  });
  app.decorateRequest('consoleSession', null);
  app.decorateRequest('currentAccessToken', null as never);
  app.addHook('onRequest', async (request, reply) => {
    request.consoleSession =
      (await resumeSession(options.resume, {
        sessionCookie: sessionCookieOf(request, reply),
        flashCookie: cookieSlot(request, reply, FLASH_COOKIE),
      })) ?? null;
    request.currentAccessToken = () => Promise.resolve(request.consoleSession?.usableAccessToken());
  });
  app.addHook('preHandler', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    app.csrfProtection(request, reply, done);
  });
}

/** What a form token is bound to: the session, or (before sign-in) the browser's anti-forgery cookie alone. */
function csrfUserInfo(request: FastifyRequest): string {
  return request.consoleSession?.id ?? 'signed-out';
}

/** The session cookie of this request and its answer. */
export function sessionCookieOf(request: FastifyRequest, reply: FastifyReply): CookieSlot {
  return cookieSlot(request, reply, SESSION_COOKIE);
}

/** The pending sign-in's cookie: Lax so the provider's redirect back (a top-level GET) carries it. */
export function signInCookieOf(request: FastifyRequest, reply: FastifyReply): CookieSlot {
  return cookieSlot(request, reply, SIGN_IN_COOKIE);
}

/**
 * One sealed value in the browser's cookies. A value longer than a cookie holds is
 * split over `NAME`, `NAME.1`, …; the first part starts with the number of parts, so
 * a stale part left from a longer value is never read. Reading after writing (or
 * clearing) in the same request gives what the browser will hold.
 */
function cookieSlot(request: FastifyRequest, reply: FastifyReply, name: string): CookieSlot {
  const partName = (index: number) => (index === 0 ? name : `${name}.${index}`);
  const carried = Array.from({ length: MAX_CHUNKS }, (_, index) => request.cookies[partName(index)]);
  let written: string | null | undefined;
  const clearParts = (from: number) => {
    carried.forEach((value, index) => {
      if (index >= from && value !== undefined) void reply.clearCookie(partName(index), COOKIE_OPTIONS);
    });
  };
  return {
    read() {
      if (written !== undefined) return written ?? undefined;
      const [head, ...rest] = carried;
      const match = head ? /^([1-9])~(.*)$/.exec(head) : null;
      if (!match) return undefined;
      const count = Number(match[1]);
      if (count > MAX_CHUNKS) return undefined;
      const parts = [match[2]!, ...rest.slice(0, count - 1)];
      return parts.every((part) => part !== undefined) && parts.length === count ? parts.join('') : undefined;
    },
    write(value, maxAgeSeconds) {
      const parts: string[] = [];
      for (let at = 0; at < value.length; at += CHUNK_LENGTH) parts.push(value.slice(at, at + CHUNK_LENGTH));
      if (parts.length > MAX_CHUNKS) throw new Error(`a sealed ${name} longer than ${MAX_CHUNKS} cookies`);
      parts.forEach((part, index) =>
        reply.setCookie(partName(index), index === 0 ? `${parts.length}~${part}` : part, {
          ...COOKIE_OPTIONS,
          maxAge: maxAgeSeconds,
        }),
      );
      clearParts(parts.length);
      written = value;
    },
    clear() {
      // The first part always: the browser may hold it without this request showing it (a stale part is harmless).
      void reply.clearCookie(name, COOKIE_OPTIONS);
      clearParts(1);
      written = null;
    },
  };
}

/** A route's preHandler: anonymous visitors go to the sign-in page and come back here after. */
export async function requireSignIn(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.consoleSession) return;
  if (request.method === 'GET' && !request.headers.accept?.includes('text/event-stream')) {
    return reply.redirect(`/sign-in?returnTo=${encodeURIComponent(request.url)}`, 303);
  }
  return reply.code(401).type('text/plain; charset=utf-8').send('Your session has ended: sign in again.');
}

/** The signed-in session of a route behind `requireSignIn`. */
export function sessionOf(request: FastifyRequest): SessionHandle {
  if (!request.consoleSession) throw new Error('route without requireSignIn');
  return request.consoleSession;
}

/** The page frame's context: who, where, a fresh form token, and the flash (shown once). */
export function pageContext(request: FastifyRequest, reply: FastifyReply, place: NavPlace): PageContext {
  const session = request.consoleSession;
  const flash = session?.takeFlash();
  return {
    ...(session ? { user: session.user } : {}),
    csrfToken: csrfTokenFor(request, reply),
    ...(flash ? { flash } : {}),
    place,
  };
}

/** A fresh anti-forgery token for this browser's session (for forms rendered outside a page: event streams). */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string {
  return reply.generateCsrf({ userInfo: csrfUserInfo(request) });
}

/** Sends a rendered page. Pages hold people's data: never stored by a cache. */
export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderDocument(page));
}

/** A flash from a service's refusal, with what the person typed. */
export function problemFlash(
  problem: Pick<ServiceProblem, 'code' | 'message' | 'details'>,
  values?: Record<string, string>,
): Flash {
  return {
    kind: 'problem',
    message: problem.message,
    code: problem.code,
    ...(problem.details ? { details: problem.details } : {}),
    ...(values ? { values } : {}),
  };
}

/**
 * The end of every form: the outcome as a flash, then back to a page (POST, redirect,
 * GET), so a reload never sends the form again. A refusal returns to `back` with the
 * typed values; a success goes to `next` (default `back`).
 */
export function answerForm<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: ServiceResult<T>,
  outcome: {
    back: string;
    success: string | ((value: T) => string);
    next?: string | ((value: T) => string);
    values?: Record<string, string>;
    secret?: (value: T) => Flash['secret'];
  },
): FastifyReply {
  const session = sessionOf(request);
  if (!result.ok) {
    session.setFlash(problemFlash(result.problem, outcome.values));
    return reply.redirect(outcome.back, 303);
  }
  const message = typeof outcome.success === 'function' ? outcome.success(result.value) : outcome.success;
  const secret = outcome.secret?.(result.value);
  session.setFlash({ kind: 'success', message, ...(secret ? { secret } : {}) });
  const next = typeof outcome.next === 'function' ? outcome.next(result.value) : outcome.next;
  return reply.redirect(next ?? outcome.back, 303);
}

/** Fields never kept for a refused form: the form token, and a private key on its way to the verifier. */
const UNKEPT_FIELDS = new Set(['_csrf', 'privateKeyPem']);

/** The fields of a form body as strings, to refill a refused form (repeated fields joined by line breaks). */
export function formValues(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (UNKEPT_FIELDS.has(name)) continue;
    if (typeof value === 'string') values[name] = value;
    else if (Array.isArray(value)) values[name] = value.filter((item) => typeof item === 'string').join('\n');
  }
  return values;
}

/** A form field that may repeat (checkboxes) as a list. */
export function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/** A page route's schema: validated like any route, left out of the OpenAPI document (pages are not an API). */
export function pageSchema<S extends object>(parts: S = {} as S): S {
  return { hide: true, ...parts } as S;
}

/** `?page=n` of a page that lists something. */
export const PageQuery = Type.Object({ page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }) });

/** The organisation named in the path. */
export const OrgParams = Type.Object({
  orgId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' }),
});

/** The console's path of an organisation page. */
export function orgPath(orgId: string, rest = ''): string {
  return `/orgs/${encodeURIComponent(orgId)}${rest}`;
}
