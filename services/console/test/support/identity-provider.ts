import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * An OpenID Connect provider for the console to sign in with: panva's `oidc-provider`
 * (certified, independent of the console's `openid-client`), configured like the
 * platform's Keycloak realm — an authorization code flow with PKCE for a confidential
 * client, refresh tokens, and JWT access tokens for the audience the services check,
 * carrying `realm_access` and `resource_access` roles. Its development login form
 * accepts any user name.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Grants the token endpoint answered, by grant type. */
  grants: string[];
  close(): Promise<void>;
}

export async function startTestOidcProvider(options: {
  port: number;
  consoleUrl: string;
  audience: string;
  /** The roles every signed-in user holds, per organisation. */
  orgRoles: Record<string, string[]>;
  email: string;
  accessTokenSeconds: number;
}): Promise<TestOidcProvider> {
  const issuer = `http://localhost:${options.port}`;
  const clientId = 'tessera-console';
  const clientSecret = 'console-secret-for-the-test-provider-only';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const grants: string[] = [];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${options.consoleUrl}/auth/callback`],
        post_logout_redirect_uris: [`${options.consoleUrl}/sign-in?signedOut=true`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' }] as never },
    cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
    claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, email: options.email, name: sub }),
    }),
    // As Keycloak does: a refresh token with every code, roles in the access token.
    issueRefreshToken: async () => true,
    extraTokenClaims: async (_ctx: KoaContextWithOIDC, token: { kind: string }) =>
      token.kind === 'AccessToken'
        ? {
            email: options.email,
            realm_access: { roles: ['offline_access'] },
            resource_access: Object.fromEntries(
              Object.entries(options.orgRoles).map(([org, roles]) => [org, { roles }]),
            ),
          }
        : undefined,
    ttl: {
      AccessToken: options.accessTokenSeconds,
      IdToken: 3600,
      RefreshToken: 3600,
      Session: 3600,
      Grant: 3600,
      Interaction: 600,
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      // As Keycloak does: a token revocation endpoint (RFC 7009), where the console revokes at sign-out.
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A resource indicator is an absolute URI; the token's audience is what the services check.
        defaultResource: async () => 'https://api.tessera.test/',
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({
          scope: 'openid email profile',
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenSeconds,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    grants.push(String((ctx.oidc.params as Record<string, unknown> | undefined)?.grant_type));
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    grants,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
