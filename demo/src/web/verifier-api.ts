import { DEMO_DCQL, DEMO_INTENT, DEMO_MDL_DCQL, type DemoRelyingParty } from '../relying-party.js';

/** How the page asks: by the ecosystem's intent, or with its own DCQL query (of an SD-JWT VC, or of an mDL). */
export type RequestKind = 'intent' | 'direct' | 'direct-mdl';

/**
 * Every Digital Credentials API protocol, in the page's order of preference: the browser
 * and its wallets take the first they support (Safari and Apple Wallet: `org-iso-mdoc`
 * only; Chrome: all four). The verifier refuses `org-iso-mdoc` for a query a
 * DeviceRequest cannot express (DC_API_PROTOCOL_NOT_SUPPORTED): then the others are asked.
 */
export const DC_API_PROTOCOLS = [
  'org-iso-mdoc',
  'openid4vp-v1-signed',
  'openid4vp-v1-multisigned',
  'openid4vp-v1-unsigned',
] as const;
export type DcApiProtocol = (typeof DC_API_PROTOCOLS)[number];

/** The verifier's answer, status and parsed body, handed on to the page as it is (its error body included). */
export interface VerifierAnswer {
  status: number;
  /** Handed on to the page as it is; only the session creation reads into it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * The relying party's calls to the Tessera verifier. The only place that holds the
 * access token: the page never sees it, it talks to this backend only. The token
 * carries the `verifier` role alone (least privilege: a leaked backend token creates
 * sessions and reads results, but cannot retarget the webhook or trust another issuer).
 */
export class VerifierApi {
  constructor(
    private readonly verifierUrl: string,
    private readonly relyingParty: DemoRelyingParty,
  ) {}

  private url(path: string): string {
    return `${this.verifierUrl}/v1/orgs/${encodeURIComponent(this.relyingParty.orgId)}/oid4vp/${path}`;
  }

  private async call(method: string, path: string, body?: unknown): Promise<VerifierAnswer> {
    const response = await fetch(this.url(path), {
      method,
      headers: {
        authorization: `Bearer ${this.relyingParty.verifierToken}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /**
   * Starts a session: intent-based (`intent-based-verification-presentation`, the
   * ecosystem's template) or direct (`presentation` with the demo's DCQL query).
   */
  createPresentation(options: {
    kind: RequestKind;
    responseMode: 'direct_post' | 'dc_api.jwt';
    redirectUri?: string;
    expectedOrigins?: string[];
    dcApiProtocols?: readonly DcApiProtocol[];
  }): Promise<VerifierAnswer> {
    const session = {
      responseMode: options.responseMode,
      ...(options.redirectUri ? { redirectUri: options.redirectUri } : {}),
      ...(options.expectedOrigins ? { expectedOrigins: options.expectedOrigins } : {}),
      ...(options.dcApiProtocols ? { dcApiProtocols: options.dcApiProtocols } : {}),
    };
    const verifierId = encodeURIComponent(this.relyingParty.verifierId);
    if (options.kind === 'intent') {
      const ecosystemId = encodeURIComponent(this.relyingParty.ecosystemId);
      return this.call(
        'POST',
        `intent-based-verification-presentation?verifierId=${verifierId}&ecosystemId=${ecosystemId}`,
        { intent: DEMO_INTENT, ...session },
      );
    }
    const dcql = options.kind === 'direct-mdl' ? DEMO_MDL_DCQL.query : DEMO_DCQL.query;
    return this.call('POST', `presentation?verifierId=${verifierId}`, { dcql, ...session });
  }

  /** What a verified session proved; with `responseCode`, only for the browser the wallet redirected. */
  readResult(sessionId: string, responseCode?: string): Promise<VerifierAnswer> {
    const query = new URLSearchParams({
      verificationPresentationId: sessionId,
      ...(responseCode !== undefined ? { responseCode } : {}),
    });
    return this.call('GET', `verifier-presentation-response?${query}`);
  }

  /** The browser wallet's answer over the Digital Credentials API, with the origin the browser reported. */
  verifyDcApiResponse(options: {
    sessionId: string;
    authorizationResponse: Record<string, unknown>;
    origin: string;
    /** `DigitalCredential.protocol`: which of the session's requests the wallet answered. */
    protocol: DcApiProtocol;
  }): Promise<VerifierAnswer> {
    return this.call('POST', 'verify-authorization-response', {
      verificationSessionId: options.sessionId,
      authorizationResponse: options.authorizationResponse,
      origin: options.origin,
      protocol: options.protocol,
    });
  }

  /** The session's state events (`text/event-stream`), to pass through to the page. */
  openEvents(options: { sessionId: string; lastEventId?: string; signal: AbortSignal }): Promise<Response> {
    return fetch(this.url(`verifier-presentation-events?id=${encodeURIComponent(options.sessionId)}`), {
      headers: {
        authorization: `Bearer ${this.relyingParty.verifierToken}`,
        accept: 'text/event-stream',
        ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
      },
      signal: options.signal,
    });
  }
}
