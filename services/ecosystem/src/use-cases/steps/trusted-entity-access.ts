// A step of the use cases on one trusted entity: the caller's relation to its
// ecosystem, then the entity within that ecosystem only.
import { isUuid, type Principal } from '@tessera/service-kit';
import type { EcosystemRow, TrustedEntityRow } from '../../db/schema.js';
import { findTrustedEntity } from '../../db/trusted-entities.js';
import type { EcosystemDb } from '../../db/types.js';
import { trustedEntityNotFound } from '../../domain/errors.js';
import type { Relation } from '../../domain/relation.js';
import { authoriseEcosystem } from './ecosystem-access.js';

/**
 * The ecosystem and the entity, when the caller's relation is one of `allowed`
 * (otherwise as `authoriseEcosystem`). An unknown or malformed entity id, or one of
 * another ecosystem, is 404 TRUSTED_ENTITY_NOT_FOUND.
 */
export async function authoriseTrustedEntity(
  db: EcosystemDb,
  principal: Principal,
  ecosystemId: string,
  entityId: string,
  allowed: readonly Relation[],
): Promise<{ ecosystem: EcosystemRow; entity: TrustedEntityRow }> {
  const { ecosystem } = await authoriseEcosystem(db, principal, ecosystemId, allowed);
  const entity = isUuid(entityId) ? await findTrustedEntity(db, ecosystem.id, entityId) : undefined;
  if (!entity) throw trustedEntityNotFound();
  return { ecosystem, entity };
}

/** The entity as it stands under the registry lock (a change committed since the first read counts). */
export async function reloadTrustedEntity(
  tx: EcosystemDb,
  ecosystemId: string,
  entityId: string,
): Promise<TrustedEntityRow> {
  const entity = await findTrustedEntity(tx, ecosystemId, entityId);
  if (!entity) throw trustedEntityNotFound();
  return entity;
}
