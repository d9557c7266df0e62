import { Type } from 'typebox';
import { DEV_OIDC_AUDIENCE, DEV_OIDC_ISSUER, ensureDevOidcKey } from './dev-oidc.js';
import type { OidcSettings } from './token-verifier.js';

/** OIDC variables of the services with management APIs (ARCHITECTURE.md, Authentication). */
export const oidcConfigProperties = {
  OIDC_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_JWKS_URI: Type.Optional(Type.String({ pattern: '^https?://' })),
  OIDC_JWKS_FILE: Type.Optional(Type.String({ minLength: 1 })),
};

interface OidcConfig {
  NODE_ENV: string;
  OIDC_ISSUER?: string;
  OIDC_AUDIENCE?: string;
  OIDC_JWKS_URI?: string;
  OIDC_JWKS_FILE?: string;
}

/** Config rule: outside development every OIDC setting must be given. */
export function oidcConfigRule(config: OidcConfig): string | undefined {
  if (config.NODE_ENV === 'development') return undefined;
  const missing = [
    !config.OIDC_ISSUER && 'OIDC_ISSUER',
    !config.OIDC_AUDIENCE && 'OIDC_AUDIENCE',
    !config.OIDC_JWKS_URI && !config.OIDC_JWKS_FILE && 'OIDC_JWKS_URI or OIDC_JWKS_FILE',
  ].filter(Boolean);
  return missing.length > 0 ? `${missing.join(', ')}: required outside development mode` : undefined;
}

/**
 * The OIDC settings in force. In development mode without OIDC settings the
 * services trust the local development key under `<dataDir>/dev-oidc/`.
 */
export async function resolveOidcSettings(config: OidcConfig & { DATA_DIR: string }): Promise<OidcSettings> {
  if (config.OIDC_ISSUER && config.OIDC_AUDIENCE && (config.OIDC_JWKS_URI || config.OIDC_JWKS_FILE)) {
    return {
      issuer: config.OIDC_ISSUER,
      audience: config.OIDC_AUDIENCE,
      ...(config.OIDC_JWKS_URI ? { jwksUri: config.OIDC_JWKS_URI } : {}),
      ...(config.OIDC_JWKS_FILE ? { jwksFile: config.OIDC_JWKS_FILE } : {}),
    };
  }
  if (config.NODE_ENV !== 'development') throw new Error('OIDC settings are required outside development mode');
  return { issuer: DEV_OIDC_ISSUER, audience: DEV_OIDC_AUDIENCE, jwks: await ensureDevOidcKey(config.DATA_DIR) };
}
