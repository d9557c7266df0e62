import { isDeepStrictEqual } from 'node:util';
import type { ErrorDetail, TrustedEntityPatchBody } from '@tessera/contracts';
import { badRequest, type Principal } from '@tessera/service-kit';
import { listCurrentCertificates } from '../db/trusted-entity-certificates.js';
import { updateTrustedEntity as updateTrustedEntityRow, type TrustedEntityFields } from '../db/trusted-entities.js';
import { normaliseEntityName } from '../domain/entity-name.js';
import { checkAllowedCredentialTypes, requireNotWithdrawn } from '../domain/trusted-entity-rules.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { changeTrustRegistry, type RegistryChangeDeps } from './steps/registry-change.js';
import { authoriseTrustedEntity, reloadTrustedEntity } from './steps/trusted-entity-access.js';

/** The registry change's deps: its clock dates the change (history, timestamps). */
export type UpdateTrustedEntityDeps = RegistryChangeDeps;

export interface UpdateTrustedEntityInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
  body: TrustedEntityPatchBody;
}

/**
 * `PATCH .../trusted-entities/{entityId}`: the lead changes the name, information URI
 * (null removes it) or allowed credential types. Role, organisation, status and
 * certificates have their own operations (or none). Fields given with their current
 * value change nothing; when nothing changes, nothing is written (no history entry, same
 * sequence). A withdrawn entity is 409 ENTITY_WITHDRAWN.
 */
export async function updateTrustedEntity(
  deps: UpdateTrustedEntityDeps,
  input: UpdateTrustedEntityInput,
): Promise<TrustedEntityView> {
  const { ecosystem, entity: found } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead'],
  );
  const at = deps.clock();
  const body = input.body;
  const { result } = await changeTrustRegistry(
    deps,
    { ecosystemId: ecosystem.id, actor: input.principal.sub, at },
    async (tx) => {
      const entity = await reloadTrustedEntity(tx, ecosystem.id, found.id);
      requireNotWithdrawn(entity.status);
      const problems: ErrorDetail[] = [];
      const wanted: TrustedEntityFields = {};
      if (body.name !== undefined) {
        const { name, problems: nameProblems } = normaliseEntityName(body.name);
        problems.push(...nameProblems);
        wanted.name = name;
      }
      if (body.informationUri !== undefined) wanted.informationUri = body.informationUri;
      if (body.allowedCredentialTypes !== undefined) {
        problems.push(...checkAllowedCredentialTypes(entity.role, body.allowedCredentialTypes));
        wanted.allowedCredentialTypes = body.allowedCredentialTypes;
      }
      if (problems.length > 0) throw badRequest('The trusted entity cannot be changed: see details.', problems);

      const from: Record<string, unknown> = {};
      const to: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(wanted) as Array<[keyof TrustedEntityFields, unknown]>) {
        if (isDeepStrictEqual(entity[field], value)) continue;
        from[field] = entity[field];
        to[field] = value;
      }
      const certificates = await listCurrentCertificates(tx, ecosystem.id, [entity.id]);
      if (Object.keys(to).length === 0) return { result: { entity, certificates } };
      const updated = await updateTrustedEntityRow(tx, ecosystem.id, entity.id, to as TrustedEntityFields, at);
      return {
        result: { entity: updated, certificates },
        history: { entityId: entity.id, change: 'updated', from, to, reason: null },
      };
    },
  );
  return result;
}
