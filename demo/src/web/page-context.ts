import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrowserSessions } from './browser-sessions.js';
import type { DemoWallet } from './demo-wallet.js';
import type { VerifierApi } from './verifier-api.js';

/** What the page's routes share: the verifier client, who started what, and where the page may run. */
export interface PageContext {
  verifier: VerifierApi;
  browsers: BrowserSessions;
  /** The origins the page is served from: a session's `expectedOrigins` and `redirectUri` come from these only. */
  allowedOrigins: readonly string[];
  /** The bundled demo wallet and issuer, for trying the page without a wallet (absent: their routes answer 404). */
  demoWallet?: DemoWallet;
}

/** One request as a route sees it. */
export interface PageRequest {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** The path's parameters (the session id). */
  params: Record<string, string>;
  /** From the browser's cookie (see browser-sessions.ts). */
  browserId: string;
}

export type PageRoute = (context: PageContext, request: PageRequest) => Promise<void>;
