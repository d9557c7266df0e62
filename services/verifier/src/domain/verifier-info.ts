/**
 * `verifier_info` of a request object (OpenID4VP 1.0 §5.1, §5.11): a non-empty array of
 * attestations about the verifier, each `{ format, data, credential_ids? }`. A registration
 * certificate (ETSI TS 119 475, in JWT form) travels as format `registration_cert`, the JWT as `data`
 * unchanged. Over the DC API with multiple signatures (Appendix A.3.2.2) `verifier_info` belongs in
 * the protected header of the signature it is for, not in the payload.
 */

export const REGISTRATION_CERT_FORMAT = 'registration_cert';

export interface VerifierInfoAttestation {
  format: string;
  /** A string (e.g. a JWT) or an object, as the format defines. */
  data: string | Record<string, unknown>;
  /** The credential queries it is relevant to; absent: all of them. */
  credential_ids?: string[];
}

export interface RegistrationCertificateAttestation {
  /** The registration certificate as stored: a compact JWS. */
  registrationCertificate: string;
  /** The credential queries of the request its intended use covers (`evaluateOverAsking`'s `coveredCredentialIds`). */
  credentialIds: string[];
}

/**
 * The `verifier_info` parameter for a verifier's registration certificates, or undefined when it has
 * none (the request object then has no `verifier_info`: an empty array is not allowed). Each
 * certificate names the credential queries its intended use covers; one that covers none of them
 * (a request sent despite over-asking, under the `warn` policy) is sent without `credential_ids`, so
 * a wallet judges the whole request against it — it would flag the request either way, and this way
 * it still shows the user who the relying party is and what it registered.
 */
export function buildVerifierInfo(
  attestations: RegistrationCertificateAttestation[],
): VerifierInfoAttestation[] | undefined {
  if (attestations.length === 0) return undefined;
  return attestations.map(({ registrationCertificate, credentialIds }) => {
    const ids = [...new Set(credentialIds)];
    return {
      format: REGISTRATION_CERT_FORMAT,
      data: registrationCertificate,
      ...(ids.length > 0 ? { credential_ids: ids } : {}),
    };
  });
}
