import { badRequest, isUuid } from '@tessera/service-kit';

export type InvitationPerspective = { kind: 'received'; orgId: string } | { kind: 'sent'; ecosystemId: string };

export interface InvitationListQuery {
  role?: 'Ecosystem Lead' | 'Ecosystem Member';
  orgId?: string;
  ecosystemId?: string;
}

/**
 * Which invitations `GET /v1/ecosystem/invitations` lists (ECOSYSTEM.md): what an
 * organisation received (`role=Ecosystem Member&orgId`) or what was sent in an
 * ecosystem (`role=Ecosystem Lead&ecosystemId`, or the spec's example form with the
 * ecosystem id in `orgId`). Without `role` the parameters given decide.
 */
export function resolveInvitationPerspective(query: InvitationListQuery): InvitationPerspective {
  const role = query.role ?? (query.ecosystemId ? 'Ecosystem Lead' : query.orgId ? 'Ecosystem Member' : undefined);
  if (role === 'Ecosystem Lead') {
    const ecosystemId = query.ecosystemId ?? query.orgId;
    if (!ecosystemId) throw missing('ecosystemId', 'name the ecosystem whose sent invitations to list');
    if (!isUuid(ecosystemId)) {
      throw badRequest('The request is invalid: see details.', [
        {
          path: query.ecosystemId ? '/ecosystemId' : '/orgId',
          message: 'query parameter must be an ecosystem id (UUID)',
        },
      ]);
    }
    return { kind: 'sent', ecosystemId };
  }
  if (role === 'Ecosystem Member' && query.orgId) return { kind: 'received', orgId: query.orgId };
  throw missing(
    'orgId',
    'name the organisation whose received invitations to list (or ecosystemId with role=Ecosystem Lead)',
  );
}

function missing(parameter: string, hint: string) {
  return badRequest('The request is invalid: see details.', [
    { path: `/${parameter}`, message: `query parameter ${parameter} is required: ${hint}` },
  ]);
}
