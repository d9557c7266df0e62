import type { CreatedPresentation, DcApiProtocol, ResponseMode } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface CreatePresentationRequestDeps {
  verifier: Pick<VerifierApi, 'getTemplate' | 'createPresentation' | 'createIntentPresentation'>;
}

export type RequestSource =
  { kind: 'template'; templateId: string } | { kind: 'intent'; ecosystemId: string; intent: string };

export interface PresentationRequestInput {
  token: string;
  orgId: string;
  verifierId: string;
  source: RequestSource;
  responseMode: ResponseMode;
  expectedOrigins?: string[];
  expiresInSeconds?: number;
  /** DC API modes: the protocols to offer, in order of preference (absent: the verifier's default, the signed request). */
  dcApiProtocols?: DcApiProtocol[];
}

/**
 * Asks a wallet for a presentation, from the console: with a template's query (its
 * DCQL, sent as a direct request) or by an ecosystem's intent (resolved by the
 * ecosystem service, verified under the ecosystem's trust policy).
 */
export async function createPresentationRequest(
  deps: CreatePresentationRequestDeps,
  input: PresentationRequestInput,
): Promise<ServiceResult<CreatedPresentation>> {
  const options = {
    responseMode: input.responseMode,
    ...(input.expectedOrigins && input.expectedOrigins.length > 0 ? { expectedOrigins: input.expectedOrigins } : {}),
    ...(input.expiresInSeconds ? { expiresInSeconds: input.expiresInSeconds } : {}),
    ...(input.dcApiProtocols && input.dcApiProtocols.length > 0 ? { dcApiProtocols: input.dcApiProtocols } : {}),
  };
  if (input.source.kind === 'intent') {
    return deps.verifier.createIntentPresentation(
      input.token,
      input.orgId,
      { verifierId: input.verifierId, ecosystemId: input.source.ecosystemId },
      { intent: input.source.intent, ...options },
    );
  }
  const template = await deps.verifier.getTemplate(input.token, input.orgId, input.source.templateId);
  if (!template.ok) return template;
  return deps.verifier.createPresentation(input.token, input.orgId, input.verifierId, {
    dcql: template.value.templateJson.dcql.query,
    ...options,
  });
}
