import type { Clock, Logger } from '@tessera/service-kit';
import {
  claimRegistrationCertificateExpiryWarnings,
  countRegistrationCertificatesByEnd,
} from '../db/registration-certificates.js';
import type { VerifierDb } from '../db/types.js';
import { REGISTRATION_EXPIRY_NOTICE_MS } from '../domain/registration-summary.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';

export interface WarnExpiringRegistrationCertificatesDeps {
  db: VerifierDb;
  clock: Clock;
  logger: Logger;
  metrics: Pick<VerifierMetrics, 'setRegistrationCertificatesByEnd'>;
}

/** Certificates warned about per statement; a run with more left runs again at once. */
const BATCH = 100;

/**
 * The registration certificates' expiry, seen ahead (a job on every replica): each certificate
 * that ends within a day is logged once — a warning naming the organisation, verifier, relying
 * party and end, claimed by one replica (`expiry_warned_at`; a new upload starts over) — and the
 * gauge counts the expiring and expired ones. An expired certificate is no longer sent: sessions
 * read the end with the certificate (`judgeRegisteredUse`); this job only tells. Answers whether
 * more were due than one batch.
 */
export async function warnExpiringRegistrationCertificates(
  deps: WarnExpiringRegistrationCertificatesDeps,
): Promise<boolean> {
  const now = deps.clock();
  const endsBy = new Date(now.getTime() + REGISTRATION_EXPIRY_NOTICE_MS);
  const due = await claimRegistrationCertificateExpiryWarnings(deps.db, { endsBy, now, limit: BATCH });
  for (const certificate of due) {
    const expired = certificate.notAfter.getTime() <= now.getTime();
    deps.logger.warn(
      {
        orgId: certificate.orgId,
        verifierId: certificate.verifierId,
        relyingParty: certificate.relyingPartyIdentifier,
        notAfter: certificate.notAfter.toISOString(),
      },
      expired
        ? 'registration certificate expired: its verifier sends no verifier_info until a new one is uploaded'
        : 'registration certificate expires within a day: upload its renewal (PUT verifier/{verifierId}/registration-certificate)',
    );
  }
  deps.metrics.setRegistrationCertificatesByEnd(await countRegistrationCertificatesByEnd(deps.db, { now, endsBy }));
  return due.length === BATCH;
}
