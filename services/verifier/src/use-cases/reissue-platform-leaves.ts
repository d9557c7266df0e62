import { createHash } from 'node:crypto';
import type { JWK } from 'jose';
import type { Clock, Logger } from '@tessera/service-kit';
import { issueLeafCertificate, leafNeedsRenewal } from '../crypto/leaf-certificate.js';
import type { PlatformCa } from '../crypto/platform-ca.js';
import type { KeyType } from '../crypto/signing-key.js';
import {
  findPlatformSetting,
  listPlatformSigningKeys,
  replaceCertificateChain,
  upsertPlatformSetting,
} from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';

// A start step (server.ts, after `openKeyStore`): every platform-issued
// request-signing leaf fits the CA in force and the current certificate profile.

/** Bump when the profile of issued leaves changes, so the next start re-checks every leaf. */
const LEAF_PROFILE = '2-single-attribute-rdns';
const MARKER = 'platform-leaves-checked';
const PAGE = 500;

export interface ReissuePlatformLeavesDeps {
  db: VerifierDb;
  logger: Pick<Logger, 'info'>;
  clock: Clock;
}

export interface ReissuePlatformLeavesInput {
  ca: PlatformCa;
  /** Host of PUBLIC_BASE_URL: the SAN dNSName of the leaves. */
  host: string;
}

/**
 * Re-issues, under the CA in force, every platform leaf that needs it: the old
 * multi-valued RDN name, another CA (the CA was re-issued or replaced), another
 * host, or near its end (`leafNeedsRenewal`, the rule used at each use). Done
 * once per CA and profile: a marker naming both lets later starts skip the walk.
 * Each replacement is conditional on the row being unchanged, so replicas
 * starting together never overwrite each other. Returns how many were replaced.
 */
export async function reissuePlatformLeaves(
  deps: ReissuePlatformLeavesDeps,
  input: ReissuePlatformLeavesInput,
): Promise<number> {
  const { ca, host } = input;
  const now = deps.clock();
  const caFingerprint = createHash('sha256').update(Buffer.from(ca.certificate.rawData)).digest('hex');
  const marker = await findPlatformSetting(deps.db, MARKER);
  if (marker?.caFingerprint === caFingerprint && marker.profile === LEAF_PROFILE) return 0;
  let replaced = 0;
  let after: { orgId: string; keyType: string } | undefined;
  for (;;) {
    const rows = await listPlatformSigningKeys(deps.db, { ...(after ? { after } : {}), limit: PAGE });
    for (const row of rows) {
      if (!(await leafNeedsRenewal({ chain: row.certificateChain ?? [], ca, host, now }))) continue;
      const leaf = await issueLeafCertificate({
        ca,
        publicJwk: row.publicJwk as JWK,
        keyType: row.keyType as KeyType,
        host,
        orgId: row.orgId,
        now,
      });
      if (
        await replaceCertificateChain(deps.db, {
          orgId: row.orgId,
          keyType: row.keyType,
          expectedUpdatedAt: row.updatedAt,
          certificateChain: [leaf],
          now,
        })
      )
        replaced += 1;
    }
    if (rows.length < PAGE) break;
    const last = rows.at(-1)!;
    after = { orgId: last.orgId, keyType: last.keyType };
  }
  await upsertPlatformSetting(deps.db, { name: MARKER, value: { caFingerprint, profile: LEAF_PROFILE } });
  if (replaced > 0) deps.logger.info({ replaced }, 'platform request-signing leaves re-issued under the CA in force');
  return replaced;
}
