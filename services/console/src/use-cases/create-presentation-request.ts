import type {
  CreatedPresentation,
  CreatePresentationBody,
  DcApiProtocol,
  RequestSigner,
  ResponseMode,
} from '@tessera/contracts';
import { failed, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface CreatePresentationRequestDeps {
  verifier: Pick<VerifierApi, 'getTemplate' | 'createPresentation' | 'createIntentPresentation'>;
}

/**
 * A template's query (optionally verified against an ecosystem's trust list: `ecosystemId`),
 * or an ecosystem's intent (verified under that ecosystem's trust policy).
 */
export type RequestSource =
  | { kind: 'template'; templateId: string; ecosystemId?: string }
  | { kind: 'intent'; ecosystemId: string; intent: string };

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
  /** The rarer options of both create bodies, sent as given: the verifier judges them. */
  payloadState?: string;
  requestSigner?: RequestSigner;
  presentationDataTtlSeconds?: number;
  transactionData?: NonNullable<CreatePresentationBody['transactionData']>;
  redirectUri?: string;
}

/** The verifier's refusals of a direct request's `ecosystemId`: they carry no path, so the form's field is named here. */
const ECOSYSTEM_REFUSALS = new Set(['NOT_A_MEMBER', 'ECOSYSTEM_NOT_FOUND', 'NO_TRUSTED_ISSUER']);

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
    ...(input.payloadState ? { payloadState: input.payloadState } : {}),
    ...(input.requestSigner ? { requestSigner: input.requestSigner } : {}),
    ...(input.presentationDataTtlSeconds ? { presentationDataTtlSeconds: input.presentationDataTtlSeconds } : {}),
    ...(input.transactionData ? { transactionData: input.transactionData } : {}),
    ...(input.redirectUri ? { redirectUri: input.redirectUri } : {}),
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
  const { ecosystemId } = input.source;
  const created = await deps.verifier.createPresentation(input.token, input.orgId, input.verifierId, {
    dcql: template.value.templateJson.dcql.query,
    ...options,
    ...(ecosystemId ? { ecosystemId } : {}),
  });
  if (created.ok || !ecosystemId || !ECOSYSTEM_REFUSALS.has(created.problem.code) || created.problem.details)
    return created;
  return failed({ ...created.problem, details: [{ path: '/ecosystemId', message: created.problem.message }] });
}
