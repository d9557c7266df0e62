// A step of most use cases: the caller's relation to an ecosystem, read from the
// service's own records (ECOSYSTEM.md, Who may call what). The rules are in
// domain/relation.ts; this step does the lookups they need.
import { ErrorCode } from '@tessera/contracts';
import { isUuid, orgsWithRole, type Principal } from '@tessera/service-kit';
import { findEcosystem } from '../../db/ecosystems.js';
import { findIntent } from '../../db/intents.js';
import { loadStandingFacts } from '../../db/standing.js';
import type { EcosystemRow, IntentRow } from '../../db/schema.js';
import type { EcosystemDb } from '../../db/types.js';
import { ecosystemNotFound, intentNotFound } from '../../domain/errors.js';
import {
  deriveStanding,
  MANAGING_ROLES,
  requireRelation,
  type Relation,
  type Standing,
} from '../../domain/relation.js';

/** How the caller stands towards an ecosystem, through the organisations they own or administer. */
export async function loadStanding(db: EcosystemDb, principal: Principal, ecosystemId: string): Promise<Standing> {
  return deriveStanding(await loadStandingFacts(db, ecosystemId, orgsWithRole(principal, MANAGING_ROLES)));
}

/**
 * The ecosystem, when the caller's relation is one of `allowed`. Unknown ids,
 * malformed ids and ecosystems the caller may not know of are all 404 ECOSYSTEM_NOT_FOUND.
 */
export async function authoriseEcosystem(
  db: EcosystemDb,
  principal: Principal,
  ecosystemId: string,
  allowed: readonly Relation[],
): Promise<{ ecosystem: EcosystemRow; standing: Standing }> {
  if (!isUuid(ecosystemId)) throw ecosystemNotFound();
  const ecosystem = await findEcosystem(db, ecosystemId);
  if (!ecosystem) throw ecosystemNotFound();
  const standing = await loadStanding(db, principal, ecosystemId);
  requireRelation({
    standing,
    allowed,
    notFoundCode: ErrorCode.ECOSYSTEM_NOT_FOUND,
    notFoundMessage: 'No such ecosystem.',
  });
  return { ecosystem, standing };
}

/** The intent, when the caller's relation to its ecosystem is one of `allowed`; otherwise as `authoriseEcosystem`, with INTENT_NOT_FOUND. */
export async function authoriseIntent(
  db: EcosystemDb,
  principal: Principal,
  intentId: string,
  allowed: readonly Relation[],
): Promise<{ intent: IntentRow; standing: Standing }> {
  if (!isUuid(intentId)) throw intentNotFound();
  const intent = await findIntent(db, intentId);
  if (!intent) throw intentNotFound();
  const standing = await loadStanding(db, principal, intent.ecosystemId);
  requireRelation({ standing, allowed, notFoundCode: ErrorCode.INTENT_NOT_FOUND, notFoundMessage: 'No such intent.' });
  return { intent, standing };
}
