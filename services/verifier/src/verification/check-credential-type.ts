import { CheckRow, failure, type CheckFailure } from './check-order.js';
import type { IssuerTrust } from './issuer-key.js';
import type { ResolvedTrustStore } from './trust-store.js';

export interface CheckCredentialTypeOptions {
  credentialQueryId: string;
  /** The SD-JWT VC's `vct` or the mdoc's doctype (from the issuer-signed data); undefined when it has none. */
  credentialType: string | undefined;
  /** The anchor the issuer was trusted through. */
  issuerTrust: IssuerTrust;
  trust: ResolvedTrustStore;
}

/**
 * An anchor may be limited to the credential types chains under it issue
 * (`credentialTypes`: `vct` values and mdoc doctypes, exact strings): a
 * national PID CA trusted for PIDs does not thereby vouch for diplomas. A
 * credential of another type, or without a type, under such an anchor fails.
 */
export function checkCredentialType(options: CheckCredentialTypeOptions): CheckFailure | undefined {
  const { issuerTrust } = options;
  const allowed =
    issuerTrust.kind === 'did'
      ? options.trust.credentialTypes.dids.get(issuerTrust.did)
      : options.trust.credentialTypes.certificates.get(issuerTrust.anchorFingerprint);
  if (!allowed || (options.credentialType !== undefined && allowed.has(options.credentialType))) return undefined;
  const anchor =
    issuerTrust.kind === 'did'
      ? `the DID anchor ${issuerTrust.did}`
      : `the trust anchor ${issuerTrust.anchorFingerprint}`;
  return failure(
    CheckRow.CREDENTIAL_TYPE,
    'CREDENTIAL_TYPE_NOT_ALLOWED',
    `The credential of credential query "${options.credentialQueryId}" has type ${JSON.stringify(options.credentialType ?? null)}, which ${anchor} does not allow (it allows ${[...allowed].map((type) => JSON.stringify(type)).join(', ')}).`,
  );
}
