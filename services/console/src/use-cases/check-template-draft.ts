import type { ErrorDetail, Verifier } from '@tessera/contracts';
import { checkDcqlDraft, walletQueryOf } from '../domain/dcql-draft.js';
import { requestedCredentials, type RequestedCredentials } from '../domain/requested-credentials.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface CheckTemplateDraftDeps {
  verifier: Pick<VerifierApi, 'getVerifier'>;
}

export interface TemplateDraftCheck {
  problems: ErrorDetail[];
  requested: RequestedCredentials;
  /** The query as the wallet receives it (no `combine`), when the draft is JSON. */
  walletQuery?: Record<string, unknown>;
  /** The verifier whose display data the preview shows, when one was picked and found. */
  verifier?: Verifier;
}

/** The editor's live check and preview of a draft query (nothing is saved). */
export async function checkTemplateDraft(
  deps: CheckTemplateDraftDeps,
  input: { token: string; orgId: string; queryText: string; verifierId?: string },
): Promise<TemplateDraftCheck> {
  const check = checkDcqlDraft(input.queryText);
  const verifier = input.verifierId
    ? await deps.verifier.getVerifier(input.token, input.orgId, input.verifierId)
    : undefined;
  return {
    problems: check.problems,
    requested: requestedCredentials(check.query),
    ...(check.query ? { walletQuery: walletQueryOf(check.query) } : {}),
    ...(verifier?.ok ? { verifier: verifier.value } : {}),
  };
}
