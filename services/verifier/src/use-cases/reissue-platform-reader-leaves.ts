import { createHash } from 'node:crypto';
import type { JWK } from 'jose';
import type { Clock, Logger } from '@tessera/service-kit';
import type { PlatformCa } from '../crypto/platform-ca.js';
import { issueReaderAuthLeafCertificate, readerAuthLeafNeedsRenewal } from '../crypto/reader-auth-leaf-certificate.js';
import { listPlatformReaderCertificates, replaceWithPlatformReaderCertificate } from '../db/reader-certificates.js';
import { findPlatformSetting, upsertPlatformSetting } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';

// A start step (server.ts, after `reissuePlatformLeaves`): every platform-issued
// mdoc reader-authentication leaf fits the CA in force, as request-signing leaves do.

/** Bump when the profile of issued reader leaves changes, so the next start re-checks every one. */
const READER_LEAF_PROFILE = '1-iso-18013-5-annex-b';
const MARKER = 'platform-reader-leaves-checked';
const PAGE = 500;

export interface ReissuePlatformReaderLeavesDeps {
  db: VerifierDb;
  logger: Pick<Logger, 'info'>;
  clock: Clock;
}

/**
 * Re-issues, under the CA in force, every platform reader leaf that needs it
 * (`readerAuthLeafNeedsRenewal`, the rule used at each use: another CA or host,
 * near its end, the old name shape, no reader purpose), for the key it certifies.
 * Once per CA and profile (a marker), each replacement conditional on the row being
 * unchanged. Returns how many were replaced.
 */
export async function reissuePlatformReaderLeaves(
  deps: ReissuePlatformReaderLeavesDeps,
  input: { ca: PlatformCa; host: string },
): Promise<number> {
  const { ca, host } = input;
  const now = deps.clock();
  const caFingerprint = createHash('sha256').update(Buffer.from(ca.certificate.rawData)).digest('hex');
  const marker = await findPlatformSetting(deps.db, MARKER);
  if (marker?.caFingerprint === caFingerprint && marker.profile === READER_LEAF_PROFILE) return 0;
  let replaced = 0;
  let afterOrgId: string | undefined;
  for (;;) {
    const rows = await listPlatformReaderCertificates(deps.db, { ...(afterOrgId ? { afterOrgId } : {}), limit: PAGE });
    for (const row of rows) {
      if (!(await readerAuthLeafNeedsRenewal({ chain: row.certificateChain, ca, host, now }))) continue;
      const leaf = await issueReaderAuthLeafCertificate({
        ca,
        publicJwk: row.publicJwk as JWK,
        host,
        orgId: row.orgId,
        now,
      });
      const values = { orgId: row.orgId, publicJwk: row.publicJwk, certificateChain: [leaf], now };
      if (await replaceWithPlatformReaderCertificate(deps.db, { ...values, expectedUpdatedAt: row.updatedAt }))
        replaced += 1;
    }
    if (rows.length < PAGE) break;
    afterOrgId = rows.at(-1)!.orgId;
  }
  await upsertPlatformSetting(deps.db, { name: MARKER, value: { caFingerprint, profile: READER_LEAF_PROFILE } });
  if (replaced > 0)
    deps.logger.info({ replaced }, 'platform reader-authentication leaves re-issued under the CA in force');
  return replaced;
}
