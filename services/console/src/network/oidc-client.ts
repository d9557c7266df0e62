import * as oidc from 'openid-client';

// The console as an OpenID Connect relying party of the platform's provider (Keycloak
// in production): authorization code flow with PKCE (S256), state and nonce, as a
// confidential client. Everything about the provider comes from its discovery
// document at OIDC_ISSUER, read on first use and kept (a provider that is down when
// the console starts only delays sign-in).

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `PUBLIC_BASE_URL/auth/callback`, registered at the provider. */
  redirectUri: string;
  scopes: string;
  /** An `http:` provider (tests, a local provider); refused in production by the config. */
  allowHttp: boolean;
  timeoutMs: number;
}

/** What the browser is sent to, and what the console keeps until the provider sends the user back. */
export interface OidcSignInStart {
  authorizationUrl: string;
  pending: { state: string; nonce: string; codeVerifier: string };
}

/** The tokens a grant answered. */
export interface OidcTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds the access token is valid for, as the provider said. */
  expiresIn?: number;
}

export interface OidcClient {
  startSignIn(): Promise<OidcSignInStart>;
  /** Exchanges the code of the callback URL (state, nonce and PKCE checked); throws when the provider or a check refuses. */
  finishSignIn(callbackUrl: URL, pending: OidcSignInStart['pending']): Promise<OidcTokens>;
  refresh(refreshToken: string): Promise<OidcTokens>;
  /**
   * Revokes a refresh token (RFC 7009) when the provider has a revocation endpoint, so
   * no replica can renew the session again; never throws (sign-out goes on regardless).
   */
  revokeRefreshToken(refreshToken: string): Promise<void>;
  /** RP-initiated logout at the provider, when it offers it. */
  endSessionUrl(idTokenHint: string | undefined, postLogoutRedirectUri: string): Promise<string | undefined>;
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  let configuration: Promise<oidc.Configuration> | undefined;
  const configure = () => {
    configuration ??= oidc
      .discovery(new URL(options.issuer), options.clientId, options.clientSecret, undefined, {
        timeout: Math.ceil(options.timeoutMs / 1000),
        ...(options.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((config) => {
        config.timeout = Math.ceil(options.timeoutMs / 1000);
        return config;
      })
      .catch((error: unknown) => {
        // Not kept: the next sign-in asks the provider again.
        configuration = undefined;
        throw error;
      });
    return configuration;
  };
  const tokensOf = (answer: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): OidcTokens => ({
    accessToken: answer.access_token,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
    ...(answer.id_token ? { idToken: answer.id_token } : {}),
    ...(answer.expiresIn() !== undefined ? { expiresIn: answer.expiresIn() } : {}),
  });

  return {
    async startSignIn() {
      const config = await configure();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: options.scopes,
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { authorizationUrl: url.href, pending: { state, nonce, codeVerifier } };
    },
    async finishSignIn(callbackUrl, pending) {
      const config = await configure();
      const answer = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      return tokensOf(answer);
    },
    async refresh(refreshToken) {
      return tokensOf(await oidc.refreshTokenGrant(await configure(), refreshToken));
    },
    async revokeRefreshToken(refreshToken) {
      try {
        const config = await configure();
        if (!config.serverMetadata().revocation_endpoint) return;
        await oidc.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
      } catch {
        // The provider is down or refused: its session ends at the logout that follows, or when the token expires.
      }
    },
    async endSessionUrl(idTokenHint, postLogoutRedirectUri) {
      const config = await configure().catch(() => undefined);
      if (!config?.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(config, {
        post_logout_redirect_uri: postLogoutRedirectUri,
        client_id: options.clientId,
        ...(idTokenHint ? { id_token_hint: idTokenHint } : {}),
      }).href;
    },
  };
}
