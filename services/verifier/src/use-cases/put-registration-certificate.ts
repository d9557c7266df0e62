import { ErrorCode, type ErrorDetail } from '@tessera/contracts';
import { AppError, type Clock } from '@tessera/service-kit';
import { x509 } from '../crypto/x509.js';
import { upsertRegistrationCertificate } from '../db/registration-certificates.js';
import { listRegistrarAnchorPems } from '../db/trust-anchors.js';
import type { VerifierDb } from '../db/types.js';
import { findVerifier } from '../db/verifiers.js';
import { verifierNotFound } from '../domain/errors.js';
import type { RegistrationSummary } from '../domain/registration-summary.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { verifyRegistrationCertificate } from '../verification/verify-registration-certificate.js';
import {
  accessCertificateIdentifierInForce,
  registrationCertificateView,
  type RegistrationCertificateView,
} from './steps/registration-certificate-view.js';

export interface PutRegistrationCertificateDeps {
  db: VerifierDb;
  clock: Clock;
  /** Tolerance on the certificate's `iat`, `nbf` and `exp` (CLOCK_SKEW_SECONDS). */
  clockSkewSeconds: number;
  /** The platform's registrar anchors (REGISTRAR_TRUST_ANCHORS_FILE), PEM. */
  registrarAnchors: readonly string[];
  metrics: Pick<VerifierMetrics, 'countRegistrationCertificateRefused'>;
}

export interface PutRegistrationCertificateInput {
  orgId: string;
  verifierId: string;
  registrationCertificate: string;
}

/**
 * `PUT verifier/{verifierId}/registration-certificate`: checks the certificate before it is stored
 * (`verifyRegistrationCertificate`: a compact JWS of a form the verifier reads, its `x5c` chain
 * valid to a registrar anchor — the platform's or the organisation's `registrar` trust anchors —
 * its signature, header and payload for the version it declares, its validity now, its relying
 * party the identifier of the organisation's P-256 access certificate in force) and stores it,
 * replacing the verifier's previous one. 404 VERIFIER_NOT_FOUND; 400
 * REGISTRATION_CERTIFICATE_INVALID whose first `details` entry is `<REASON>: <why>`, then each
 * problem found (paths into the certificate: `/registrationCertificate/header/x5c`, …).
 */
export async function putRegistrationCertificate(
  deps: PutRegistrationCertificateDeps,
  input: PutRegistrationCertificateInput,
): Promise<RegistrationCertificateView> {
  const { orgId } = input;
  const verifier = await findVerifier(deps.db, { orgId, verifierId: input.verifierId });
  if (!verifier) throw verifierNotFound(input.verifierId);
  const anchors = [...deps.registrarAnchors, ...(await listRegistrarAnchorPems(deps.db, { orgId }))].map(
    (pem) => new x509.X509Certificate(pem),
  );
  const identifierInForce = await accessCertificateIdentifierInForce(deps.db, orgId);
  const now = deps.clock();
  const verified = await verifyRegistrationCertificate({
    jwt: input.registrationCertificate,
    anchors,
    relyingPartyIdentifier: identifierInForce,
    now,
    clockSkewSeconds: deps.clockSkewSeconds,
  });
  if (!verified.ok) {
    deps.metrics.countRegistrationCertificateRefused(verified.reason);
    const details: ErrorDetail[] = [
      { path: '/registrationCertificate', message: `${verified.reason}: ${verified.message}` },
      ...verified.details.map((detail) => ({
        path: `/registrationCertificate${detail.path}`,
        message: `/registrationCertificate${detail.message}`,
      })),
    ];
    throw new AppError(400, ErrorCode.REGISTRATION_CERTIFICATE_INVALID, verified.message, details);
  }
  const { registrationCertificate: certificate } = verified;
  const summary: RegistrationSummary = {
    form: certificate.form,
    registrar: certificate.registrar,
    relyingParty: certificate.relyingParty,
    ...(certificate.intermediary ? { intermediary: certificate.intermediary } : {}),
    intendedUses: certificate.intendedUses,
  };
  const row = await upsertRegistrationCertificate(deps.db, {
    verifierRef: verifier.id,
    orgId,
    jwt: input.registrationCertificate.trim(),
    summary: summary as unknown as Record<string, unknown>,
    // What the certificate was checked against: the access certificate's identifier.
    relyingPartyIdentifier: identifierInForce!,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    now,
  });
  return registrationCertificateView(verifier, row, { now, identifierInForce });
}
