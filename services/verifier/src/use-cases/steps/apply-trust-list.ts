import { ErrorCode } from '@tessera/contracts';
import { conflict } from '@tessera/service-kit';
import { addTrustedAuthorities } from '../../domain/trusted-authorities.js';
import type { HeldTrustList } from '../../state/trust-list-snapshots.js';

// Shared step of both create-session use cases, for a session verified against an ecosystem's list.

/**
 * The query as sent to wallets and stored, with `trusted_authorities` naming
 * the list's active issuers for each credential query; 409 NO_TRUSTED_ISSUER
 * (nothing stored) when some credential query has none, as no wallet could
 * answer it.
 */
export function applyTrustList(input: {
  dcqlQuery: Record<string, unknown>;
  list: HeldTrustList;
  now: Date;
}): Record<string, unknown> {
  const applied = addTrustedAuthorities({ query: input.dcqlQuery, entities: input.list.entities, now: input.now });
  if (applied.ok) return applied.query;
  const ids = applied.credentialQueryIds.map((id) => `"${id}"`).join(', ');
  throw conflict(
    ErrorCode.NO_TRUSTED_ISSUER,
    `No active issuer of the trust list of ecosystem ${input.list.ecosystemId} (sequence ${input.list.sequence}) may issue what credential query ${ids} asks for (or none is named by a key identifier the query allows); a wallet could not answer this request.`,
  );
}
