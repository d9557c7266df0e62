import { safeReturnPath } from '../domain/console-session.js';
import type { OidcClient } from '../network/oidc-client.js';
import type { PendingSignInStore } from '../state/console-stores.js';

export interface StartSignInDeps {
  oidc: Pick<OidcClient, 'startSignIn'>;
  pendingSignIns: PendingSignInStore;
}

export type StartSignInResult =
  { ok: true; authorizationUrl: string; pendingId: string } | { ok: false; reason: 'provider-unavailable' };

/** Sends the browser to the provider: state, nonce and the PKCE verifier stay here under a one-time id. */
export async function startSignIn(deps: StartSignInDeps, input: { returnTo: unknown }): Promise<StartSignInResult> {
  try {
    const { authorizationUrl, pending } = await deps.oidc.startSignIn();
    const pendingId = deps.pendingSignIns.create({ ...pending, returnTo: safeReturnPath(input.returnTo) });
    return { ok: true, authorizationUrl, pendingId };
  } catch {
    return { ok: false, reason: 'provider-unavailable' };
  }
}
