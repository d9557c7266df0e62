// A step of the use cases that add certificates: the registry's certificate rules
// (domain/vet-certificates.ts) with the lookup they need.
import type { ErrorDetail } from '@tessera/contracts';
import { findCertificateHolders } from '../../db/trusted-entity-certificates.js';
import type { EcosystemDb } from '../../db/types.js';
import type { ReadCertificate, ReadCertificateResult } from '../../domain/read-certificate.js';
import { vetCertificates } from '../../domain/vet-certificates.js';

/**
 * The uploads that may be added, or the problems with them. Run under the registry
 * lock, so no concurrent change can add the same certificate between the check and the insert.
 */
export async function vetCertificateUploads(
  tx: EcosystemDb,
  options: { ecosystemId: string; read: ReadCertificateResult[]; now: Date; path: string },
): Promise<{ certificates: ReadCertificate[]; problems: ErrorDetail[] }> {
  const fingerprints = options.read.flatMap((result) => (result.ok ? [result.certificate.fingerprint] : []));
  const holders = await findCertificateHolders(tx, options.ecosystemId, fingerprints);
  const vetted = vetCertificates({ read: options.read, now: options.now, holders, path: options.path });
  return vetted.ok
    ? { certificates: vetted.certificates, problems: [] }
    : { certificates: [], problems: vetted.problems };
}
