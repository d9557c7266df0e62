import { isUuid, unauthorized, type Principal, type Clock } from '@tessera/service-kit';
import type { SignedTrustList, SignedTrustListCache } from '../state/signed-trust-lists.js';
import type { TrustListSigner } from '../crypto/trust-list-signer.js';
import { findTrustListHeader } from '../db/trust-list-header.js';
import { readTrustListContent } from '../db/trust-list-content.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemNotFound } from '../domain/errors.js';
import { buildTrustListPayload, nextUpdateOf } from '../domain/trust-list-payload.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface GetSignedTrustListDeps {
  db: EcosystemDb;
  signer: TrustListSigner;
  signedLists: SignedTrustListCache;
  /** The time the list is issued at; `nextUpdate` counts from it. */
  clock: Clock;
  /** TRUST_LIST_VALIDITY_SECONDS. */
  validitySeconds: number;
  /** The service's public base URL (DistributionPoints), without a trailing slash. */
  publicBaseUrl: string;
}

export interface GetSignedTrustListInput {
  /** Null: the request carried no token (only a public list is served then). */
  principal: Principal | null;
  ecosystemId: string;
}

export interface SignedTrustListResult {
  list: SignedTrustList;
  /** Whether the list is public: served to anyone, and cacheable (the route's headers). */
  public: boolean;
}

const TOKEN_NEEDED = 'This trust list is not public: send an access token of its ecosystem lead or an active member.';

/**
 * `GET /v1/ecosystem/{ecosystemId}/trust-list`: the signed list (README, The signed trust
 * list). A public list is served to anyone. Otherwise a caller without a token gets 401,
 * also for an unknown ecosystem, so anonymous callers learn nothing of which ecosystems
 * exist; with a token the lead and active members read it, outsiders and unknown ids
 * get 404, invited organisations 403. The copy signed for the current sequence is
 * reused until half its validity has passed (state/signed-trust-lists.ts).
 */
export async function getSignedTrustList(
  deps: GetSignedTrustListDeps,
  input: GetSignedTrustListInput,
): Promise<SignedTrustListResult> {
  const { ecosystemId, principal } = input;
  const header = isUuid(ecosystemId) ? await findTrustListHeader(deps.db, ecosystemId) : undefined;
  if (!header?.public) {
    if (!principal) throw unauthorized(TOKEN_NEEDED);
    await authoriseEcosystem(deps.db, principal, ecosystemId, ['lead', 'member']);
  }
  if (!header) throw ecosystemNotFound();
  const now = deps.clock();
  const cached = deps.signedLists.fresh(ecosystemId, header.sequence, now);
  if (cached) return { list: cached, public: header.public };
  const content = await readTrustListContent(deps.db, ecosystemId);
  if (!content) throw ecosystemNotFound();
  const nextUpdate = nextUpdateOf(now, deps.validitySeconds);
  const payload = buildTrustListPayload({
    content,
    issuedAt: now,
    validitySeconds: deps.validitySeconds,
    distributionPoint: `${deps.publicBaseUrl}/v1/ecosystem/${ecosystemId}/trust-list`,
  });
  const jws = await deps.signer.sign(payload, { now, validUntil: nextUpdate });
  const list: SignedTrustList = { ecosystemId, sequence: content.sequence, jws, issuedAt: now, nextUpdate };
  deps.signedLists.put(list);
  // Visibility as read with the content: a list made private meanwhile is not served as public.
  return { list, public: content.public && header.public };
}
