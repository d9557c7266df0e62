import { Type, type Static } from 'typebox';
import { commonConfigProperties, loadConfig, natsConfigProperties, oidcConfigProperties, oidcConfigRule } from '@tessera/service-kit';

export const SERVICE_NAME = 'ecosystem';
export const DEFAULT_PORT = 3002;

export const EcosystemConfigSchema = Type.Object({
  ...commonConfigProperties(DEFAULT_PORT),
  ...oidcConfigProperties,
  /** Feature switch: when false every ecosystem, intent and invitation route answers 403 ECOSYSTEM_DISABLED. */
  ECOSYSTEM_ENABLED: Type.Boolean({ default: true }),
  /** Longest reuse of an intent resolution; change notifications end it sooner. 0 disables the cache. */
  RESOLVE_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 5000 }),
  /** NATS server(s), comma separated; absent = the in-process transport (one-process development). */
  ...natsConfigProperties,
  /** Listed as the server of the OpenAPI document. */
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
});

export type EcosystemConfig = Static<typeof EcosystemConfigSchema>;

export function loadEcosystemConfig(env: Record<string, string | undefined> = process.env): EcosystemConfig {
  return loadConfig(EcosystemConfigSchema, env, [oidcConfigRule]);
}
