import { Type, type Static } from 'typebox';
import {
  commonConfigProperties,
  databaseTlsConfigRule,
  loadConfig,
  metricsConfigProperties,
  natsConfigProperties,
  natsConfigRule,
  oidcConfigProperties,
  oidcConfigRule,
  rateLimitConfigProperties,
} from '@tessera/service-kit';

export const SERVICE_NAME = 'ecosystem';
export const DEFAULT_PORT = 3002;
/** METRICS_PORT when unset (README, Operating Tessera: Metrics). */
export const DEFAULT_METRICS_PORT = 9102;

export const EcosystemConfigSchema = Type.Object({
  ...commonConfigProperties(DEFAULT_PORT),
  ...metricsConfigProperties,
  ...oidcConfigProperties,
  /** Feature switch: when false every ecosystem, intent and invitation route answers 403 ECOSYSTEM_DISABLED. */
  ECOSYSTEM_ENABLED: Type.Boolean({ default: true }),
  /** Longest reuse of an intent resolution; change notifications end it sooner. 0 disables the cache. */
  RESOLVE_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 5000 }),
  /** NATS server(s), comma separated; absent = the in-process transport (one-process development). */
  ...natsConfigProperties,
  /**
   * Listed as the server of the OpenAPI document, and the base of the signed trust list's
   * DistributionPoints. Absent: http://localhost:PORT (fine for development only).
   */
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /**
   * The trust-list CA (README, The signed trust list): its certificate and PKCS#8 key, PEM,
   * inline or as files. Required outside development; in development, absent means a CA
   * generated once under DATA_DIR/trust-list-ca/.
   */
  TRUST_LIST_CA_CERT_PEM: Type.Optional(Type.String({ minLength: 1 })),
  TRUST_LIST_CA_CERT_PEM_FILE: Type.Optional(Type.String({ minLength: 1 })),
  TRUST_LIST_CA_KEY_PEM: Type.Optional(Type.String({ minLength: 1 })),
  TRUST_LIST_CA_KEY_PEM_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * How far ahead a signed list's NextUpdate lies (the issue: at most 24 h), and the
   * `nextUpdate` of `ecosystem.v1.trust-list.get` replies. A replica re-signs a list once
   * half of this has passed, so a list fetched any time has at least half of it left.
   */
  TRUST_LIST_VALIDITY_SECONDS: Type.Integer({ minimum: 60, maximum: 86400, default: 86400 }),
  /**
   * Requests per client address and window to each public trust-list route (the list, its
   * CA, the CORS preflight), for all replicas together. Generous, as on the verifier's
   * wallet routes: readers behind one carrier-grade NAT or one cluster's egress share an
   * address, and a public list is meant to be cached (Cache-Control, ETag) rather than
   * fetched again.
   */
  TRUST_LIST_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }),
  TRUST_LIST_RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000 }),
  /** RATE_LIMIT_IPV6_PREFIX (IPv6 clients counted by network), RATE_LIMIT_SYNC_MS (how often replicas share their counts). */
  ...rateLimitConfigProperties(),
});

export type EcosystemConfig = Static<typeof EcosystemConfigSchema>;

export function loadEcosystemConfig(env: Record<string, string | undefined> = process.env): EcosystemConfig {
  return loadConfig(EcosystemConfigSchema, env, [
    oidcConfigRule,
    databaseTlsConfigRule,
    natsConfigRule,
    (c) =>
      c.TRUST_LIST_CA_CERT_PEM && c.TRUST_LIST_CA_CERT_PEM_FILE
        ? 'TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_CERT_PEM_FILE: give one, not both'
        : undefined,
    (c) =>
      c.TRUST_LIST_CA_KEY_PEM && c.TRUST_LIST_CA_KEY_PEM_FILE
        ? 'TRUST_LIST_CA_KEY_PEM, TRUST_LIST_CA_KEY_PEM_FILE: give one, not both'
        : undefined,
    (c) => {
      const certificate = !!(c.TRUST_LIST_CA_CERT_PEM || c.TRUST_LIST_CA_CERT_PEM_FILE);
      const key = !!(c.TRUST_LIST_CA_KEY_PEM || c.TRUST_LIST_CA_KEY_PEM_FILE);
      if (certificate && key) return undefined;
      if (certificate || key)
        return `${certificate ? 'TRUST_LIST_CA_KEY_PEM' : 'TRUST_LIST_CA_CERT_PEM'}: give both the trust-list CA certificate and its key (or their _FILE variants), or neither`;
      return c.NODE_ENV === 'development'
        ? undefined
        : 'TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_KEY_PEM: the trust-list CA certificate and key (or their _FILE variants) are required outside development mode';
    },
  ]);
}

/** The public base URL in force, without a trailing slash. */
/** Where the trust-list CA comes from (crypto/trust-list-ca.ts's `TrustListCaSource`), as configured. */
export function trustListCaSourceOf(config: EcosystemConfig) {
  return {
    certificate: { pem: config.TRUST_LIST_CA_CERT_PEM, file: config.TRUST_LIST_CA_CERT_PEM_FILE },
    key: { pem: config.TRUST_LIST_CA_KEY_PEM, file: config.TRUST_LIST_CA_KEY_PEM_FILE },
    developmentDataDir: config.NODE_ENV === 'development' ? config.DATA_DIR : undefined,
  };
}

export function publicBaseUrlOf(config: Pick<EcosystemConfig, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
