import type { OverAskingPolicy, Verifier } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveVerifierSettingsDeps {
  verifier: Pick<VerifierApi, 'patchVerifier'>;
}

/**
 * A verifier's settings: what a query asking beyond its registration certificate gets
 * (`overAskingPolicy`) and whether its sessions must meet HAIP 1.0 (`strictHaip`). Sent
 * alone (the verifier's PATCH): the display data is not read nor sent, so a change of it
 * made meanwhile by someone else stays.
 */
export function saveVerifierSettings(
  deps: SaveVerifierSettingsDeps,
  input: { token: string; orgId: string; verifierId: string; overAskingPolicy: OverAskingPolicy; strictHaip: boolean },
): Promise<ServiceResult<Verifier>> {
  return deps.verifier.patchVerifier(input.token, input.orgId, input.verifierId, {
    overAskingPolicy: input.overAskingPolicy,
    strictHaip: input.strictHaip,
  });
}
