import type { ErrorDetail } from '@tessera/contracts';
import type { ReadCertificate, ReadCertificateResult } from './read-certificate.js';

/** An entity of the ecosystem that holds a certificate as a current one. */
export interface CertificateHolder {
  entityId: string;
  entityName: string;
}

export interface VetCertificatesOptions {
  /** The uploads as `readCertificate` read them, in request order. */
  read: ReadCertificateResult[];
  now: Date;
  /**
   * By fingerprint: the live (not withdrawn) entity of the ecosystem that holds it as
   * a current certificate — possibly the entity receiving the uploads.
   */
  holders: ReadonlyMap<string, CertificateHolder>;
  /** Where the uploads are in the request body, e.g. `/certificates`. */
  path: string;
}

export type VetCertificatesResult =
  { ok: true; certificates: ReadCertificate[] } | { ok: false; problems: ErrorDetail[] };

/**
 * The registry's rules for certificates it is asked to trust (README, Trust registry):
 * parseable; not expired (a notBefore in the future is accepted, so a rollover can be
 * registered ahead); a CA must carry a subject key identifier (lists and DCQL
 * `trusted_authorities` name CAs by it); no certificate twice in one request, and none
 * that a live entity of the ecosystem already holds — the entity itself or another, so
 * a certificate leads to one entity. Every problem is reported, each at its upload.
 */
export function vetCertificates(options: VetCertificatesOptions): VetCertificatesResult {
  const problems: ErrorDetail[] = [];
  const certificates: ReadCertificate[] = [];
  const seen = new Map<string, number>();
  options.read.forEach((result, index) => {
    const path = `${options.path}/${index}/pem`;
    const problem = (message: string) => problems.push({ path, message: `certificate ${index} ${message}` });
    if (!result.ok) return problem(result.problem);
    const certificate = result.certificate;
    if (certificate.notAfter.getTime() < options.now.getTime())
      return problem(`expired on ${certificate.notAfter.toISOString()}`);
    if (certificate.kind === 'ca' && !certificate.ski)
      return problem('is a CA certificate without a subject key identifier');
    const earlier = seen.get(certificate.fingerprint);
    if (earlier !== undefined) return problem(`is the same certificate as certificate ${earlier}`);
    seen.set(certificate.fingerprint, index);
    const holder = options.holders.get(certificate.fingerprint);
    if (holder)
      return problem(`is already a current certificate of trusted entity "${holder.entityName}" (${holder.entityId})`);
    certificates.push(certificate);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, certificates };
}
