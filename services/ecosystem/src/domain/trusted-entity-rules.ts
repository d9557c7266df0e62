// Rules of trusted entities that need no lookups (README, Trust registry).
import {
  ErrorCode,
  type AllowedCredentialType,
  type ErrorDetail,
  type TrustedEntityRole,
  type TrustedEntityStatus,
} from '@tessera/contracts';
import { conflict } from '@tessera/service-kit';

/**
 * Issuers are allowed one or more credential types; verifiers none (they issue
 * nothing). No type twice. `path` is where the list is in the body.
 */
export function checkAllowedCredentialTypes(
  role: TrustedEntityRole,
  types: AllowedCredentialType[],
  path = '/allowedCredentialTypes',
): ErrorDetail[] {
  if (role === 'issuer' && types.length === 0)
    return [{ path, message: 'an issuer needs at least one allowed credential type' }];
  if (role === 'verifier' && types.length > 0)
    return [{ path, message: 'a verifier has no allowed credential types (leave it out or empty)' }];
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  types.forEach((type, index) => {
    const key = credentialTypeKey(type);
    if (seen.has(key))
      problems.push({ path: `${path}/${index}`, message: `${describeCredentialType(type)} is listed twice` });
    seen.add(key);
  });
  return problems;
}

export function credentialTypeKey(type: AllowedCredentialType): string {
  return type.format === 'dc+sd-jwt' ? `dc+sd-jwt\u0000${type.vct}` : `mso_mdoc\u0000${type.doctype}`;
}

function describeCredentialType(type: AllowedCredentialType): string {
  return type.format === 'dc+sd-jwt' ? `vct "${type.vct}"` : `doctype "${type.doctype}"`;
}

/** A withdrawn entity is final: no status, field or certificate changes. */
export function requireNotWithdrawn(status: TrustedEntityStatus): void {
  if (status === 'withdrawn')
    throw conflict(
      ErrorCode.ENTITY_WITHDRAWN,
      'This trusted entity is withdrawn, which is final: it can no longer be changed. Register a new entity instead.',
    );
}

/**
 * The status change from `current` to `next`: active ⇄ suspended, either → withdrawn;
 * withdrawn is final (409 ENTITY_WITHDRAWN, also for "withdrawn" again). Asking for
 * the current status is no change (`'unchanged'`: nothing is written).
 */
export function planStatusChange(current: TrustedEntityStatus, next: TrustedEntityStatus): 'change' | 'unchanged' {
  requireNotWithdrawn(current);
  return current === next ? 'unchanged' : 'change';
}
