import type { OverAskingPolicy, Verifier } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveVerifierSettingsDeps {
  verifier: Pick<VerifierApi, 'getVerifier' | 'updateVerifier'>;
}

/**
 * A verifier's settings: what a query asking beyond its registration certificate gets
 * (`overAskingPolicy`) and whether its sessions must meet HAIP 1.0 (`strictHaip`). The
 * verifier's PUT replaces the display data (an absent `clientMetadata` clears it), so the
 * display data in force is read and sent back unchanged with the settings.
 */
export async function saveVerifierSettings(
  deps: SaveVerifierSettingsDeps,
  input: { token: string; orgId: string; verifierId: string; overAskingPolicy: OverAskingPolicy; strictHaip: boolean },
): Promise<ServiceResult<Verifier>> {
  const current = await deps.verifier.getVerifier(input.token, input.orgId, input.verifierId);
  if (!current.ok) return current;
  return deps.verifier.updateVerifier(input.token, input.orgId, input.verifierId, {
    ...(current.value.clientMetadata ? { clientMetadata: current.value.clientMetadata } : {}),
    overAskingPolicy: input.overAskingPolicy,
    strictHaip: input.strictHaip,
  });
}
