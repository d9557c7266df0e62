import type { ReceiveWalletResponseResult } from '../use-cases/receive-wallet-response.js';

/** The 200 body of the response endpoint: `{}`, or `{ redirect_uri }` for a same-device flow (OpenID4VP 1.0 §8.2). */
export function toWalletResponseAnswer(result: ReceiveWalletResponseResult): { redirect_uri?: string } {
  return result.redirectUri ? { redirect_uri: result.redirectUri } : {};
}
