import { Type, type Static } from 'typebox';
import { commonConfigProperties, loadConfig, metricsConfigProperties, withSecretFiles } from '@tessera/service-kit';

export const SERVICE_NAME = 'console';
/** After the services' 3001–3003 (3000 is Grafana's in the compose observability profile). */
export const DEFAULT_PORT = 3004;
/** METRICS_PORT when unset (after the services' 9101–9103). */
export const DEFAULT_METRICS_PORT = 9104;

// The console has no database: of the shared variables it reads the process ones only.
const {
  DATABASE_URL: _databaseUrl,
  DATABASE_CA_FILE: _databaseCaFile,
  MIGRATE_ON_START: _migrateOnStart,
  DB_POOL_SIZE: _poolSize,
  DB_CONNECT_TIMEOUT_SECONDS: _connectTimeout,
  ...processProperties
} = commonConfigProperties(DEFAULT_PORT);

const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$' });

export const ConsoleConfigSchema = Type.Object({
  ...processProperties,
  ...metricsConfigProperties,
  /** Where people reach the console; the OIDC redirect URI is `PUBLIC_BASE_URL/auth/callback`. Required outside development. */
  PUBLIC_BASE_URL: Type.Optional(HttpUrl),
  /** The services' base URLs, as the console's replicas reach their public APIs. Required outside development. */
  VERIFIER_URL: Type.Optional(HttpUrl),
  ECOSYSTEM_URL: Type.Optional(HttpUrl),
  STATUS_LIST_URL: Type.Optional(HttpUrl),
  /** The platform's OpenID Connect provider (Keycloak's realm URL); its discovery document names everything else. */
  OIDC_ISSUER: Type.Optional(HttpUrl),
  /** The console's confidential client at the provider (authorization code + PKCE). */
  OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_SCOPES: Type.String({ default: 'openid email profile', pattern: '(^|\\s)openid(\\s|$)' }),
  /** Talk to an `http:` provider (a local test provider); never in production. */
  OIDC_ALLOW_HTTP: Type.Boolean({ default: false }),
  /** Signs the session cookie (at least 32 characters). Required outside development. */
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** A session unused this long ends. */
  SESSION_IDLE_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 30 }),
  /** A session ends this long after sign-in, whatever happens. */
  SESSION_MAX_HOURS: Type.Integer({ minimum: 1, maximum: 168, default: 8 }),
  /**
   * Signed-out sessions one replica remembers (refusing a copy of their cookie) until they would have expired;
   * the least recently signed out beyond it are forgotten (their refresh tokens are revoked anyway).
   */
  SESSION_MAX_ENTRIES: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000 }),
  /** One call to a service: connection, request and response. */
  UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  /** The live session list reads the list again this often to find sessions created since (no organisation-wide stream exists). */
  SESSION_LIST_REFRESH_MS: Type.Integer({ minimum: 250, maximum: 60_000, default: 3000 }),
  /** A `: heartbeat` comment on the console's own event streams this often. */
  SSE_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
  /** The overview reads at most this many of the newest sessions (pages of 100). */
  OVERVIEW_MAX_SESSIONS: Type.Integer({ minimum: 100, maximum: 100_000, default: 2000 }),
});

export type ConsoleConfig = Static<typeof ConsoleConfigSchema>;

/** Variables that may come from files (`NAME_FILE`, a mounted Kubernetes Secret). */
export const SECRET_VARIABLES = ['SESSION_SECRET', 'OIDC_CLIENT_SECRET'] as const;

export function loadConsoleConfig(env: Record<string, string | undefined> = process.env): ConsoleConfig {
  return loadConfig(ConsoleConfigSchema, withSecretFiles(env, SECRET_VARIABLES), [
    (c) => {
      if (c.NODE_ENV === 'development') return undefined;
      const missing = (
        ['PUBLIC_BASE_URL', 'VERIFIER_URL', 'ECOSYSTEM_URL', 'STATUS_LIST_URL', 'SESSION_SECRET'] as const
      )
        .filter((name) => !c[name])
        .join(', ');
      return missing ? `${missing}: required outside development mode` : undefined;
    },
    (c) => {
      const given = [c.OIDC_ISSUER, c.OIDC_CLIENT_ID, c.OIDC_CLIENT_SECRET].filter(Boolean).length;
      if (given === 3) return undefined;
      if (given === 0 && c.NODE_ENV === 'development') return undefined;
      return 'OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: give all three (outside development they are required)';
    },
    (c) =>
      c.OIDC_ALLOW_HTTP && c.NODE_ENV === 'production' && !(c.OIDC_ISSUER && isLocalHost(c.OIDC_ISSUER))
        ? 'OIDC_ALLOW_HTTP: not allowed in production unless OIDC_ISSUER is on this machine (tokens would cross the network in clear)'
        : undefined,
    (c) =>
      c.NODE_ENV === 'production' && c.PUBLIC_BASE_URL?.startsWith('http:') && !isLocalHost(c.PUBLIC_BASE_URL)
        ? 'PUBLIC_BASE_URL: must be https in production (the session cookie is Secure), unless it is on this machine'
        : undefined,
  ]);
}

/**
 * A URL of this machine (loopback, `localhost`, `*.localhost`): a browser treats it as a
 * secure context even over http, and nothing crosses a network. Docker Compose and a
 * development cluster run the console there.
 */
export function isLocalHost(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The console's own base URL, without a trailing slash. */
export function publicBaseUrlOf(config: Pick<ConsoleConfig, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

/** Each service's base URL in force (development defaults: the ports `npm start` uses). */
export function serviceUrlsOf(config: ConsoleConfig): { verifier: string; ecosystem: string; statusList: string } {
  const trim = (url: string) => url.replace(/\/$/, '');
  return {
    verifier: trim(config.VERIFIER_URL ?? 'http://localhost:3001'),
    ecosystem: trim(config.ECOSYSTEM_URL ?? 'http://localhost:3002'),
    statusList: trim(config.STATUS_LIST_URL ?? 'http://localhost:3003'),
  };
}
