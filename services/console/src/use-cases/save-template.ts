import type { ClientIdPrefix, SignerOption, VerificationTemplate } from '@tessera/contracts';
import { QUERY_POINTER } from '../domain/dcql-draft.js';
import { failed, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveTemplateDeps {
  verifier: Pick<VerifierApi, 'createTemplate' | 'updateTemplate'>;
}

export interface TemplateDraft {
  name: string;
  signerOption: SignerOption;
  clientIdPrefix?: ClientIdPrefix;
  /** The query as typed (JSON text). */
  queryText: string;
  /** The verifier whose registration certificate judges the query when saved. */
  verifierId?: string;
}

/**
 * Creates or replaces a verification template. The verifier validates the query
 * (400 `INVALID_DCQL`, each problem at its path); text that is not even JSON is
 * answered here, at the same path, without a call.
 */
export async function saveTemplate(
  deps: SaveTemplateDeps,
  input: { token: string; orgId: string; templateId?: string; draft: TemplateDraft },
): Promise<ServiceResult<VerificationTemplate>> {
  const { draft } = input;
  let query: unknown;
  try {
    query = JSON.parse(draft.queryText);
  } catch (error) {
    return failed({
      service: 'verifier',
      status: 400,
      code: 'INVALID_DCQL',
      message: 'The DCQL query is not JSON: see details.',
      details: [{ path: QUERY_POINTER, message: (error as Error).message }],
    });
  }
  const body = {
    name: draft.name.trim(),
    signerOption: draft.signerOption,
    ...(draft.clientIdPrefix ? { clientIdPrefix: draft.clientIdPrefix } : {}),
    ...(draft.verifierId ? { verifierId: draft.verifierId } : {}),
    templateJson: { dcql: { query: query as Record<string, unknown> } },
  };
  return input.templateId
    ? deps.verifier.updateTemplate(input.token, input.orgId, input.templateId, body)
    : deps.verifier.createTemplate(input.token, input.orgId, body);
}
