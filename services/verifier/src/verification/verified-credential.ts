import type { IssuerTrust } from './issuer-key.js';

/** One presentation that passed its format's checks, as the later checks (DCQL, status) and the result use it. */
export interface VerifiedCredential {
  credentialQueryId: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  vct?: string;
  doctype?: string;
  /** Certificate subject DN of the issuer's leaf, or the issuer DID. */
  issuer: string;
  issuerTrust: IssuerTrust;
  /** SD-JWT: disclosed JSON without `_sd`, `_sd_alg`, `cnf`; mdoc: `{ namespace: { element: value } }` as JSON. */
  claims: Record<string, unknown>;
  /** True when the presentation proved possession of the holder key. */
  holderBinding: boolean;
  validFrom?: string;
  validUntil?: string;
  /** The credential's raw `status` (SD-JWT claim or MSO field), when present. */
  status?: unknown;
  /** The verified KB-JWT payload (SD-JWT), for the transaction data check. */
  keyBindingPayload?: Record<string, unknown>;
}
