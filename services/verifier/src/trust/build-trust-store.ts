import type { VerifierContext } from '../context.js';
import { readTrustAnchorMaterial } from '../db/trust-anchors.js';
import type { TrustStore } from '../verification/trust-store.js';

/**
 * The trust a verification uses: the platform bundle plus the session
 * organisation's anchors, read from the database for each verification so an
 * anchor added or deleted applies to the very next one.
 */
export async function buildTrustStore(ctx: VerifierContext, orgId: string): Promise<TrustStore> {
  const own = await readTrustAnchorMaterial(ctx.db, orgId);
  return { certificates: [...ctx.trustedIssuers, ...own.certificates], dids: own.dids };
}
