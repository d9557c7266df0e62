import type {
  AuthorizationResponseOutcome,
  PresentationResponse,
  SatisfiedCredentialSet,
  VerifiedPresentation,
} from '@tessera/contracts';
import type { SessionRow } from '../db/schema.js';
import type { PresentationResult } from '../db/session-outcomes.js';
import type { SettledOutcome } from '../use-cases/steps/settle-session-outcome.js';

/** `verifier-presentation-response`: the verified session and what it proved. */
export function toPresentationResponse(
  session: Pick<SessionRow, 'id'>,
  result: PresentationResult,
): PresentationResponse {
  return {
    id: session.id,
    state: 'ResponseVerified',
    verifiedAt: result.verifiedAt.toISOString(),
    presentations: result.presentations as unknown as VerifiedPresentation[],
    ...(result.credentialSets ? { credentialSets: result.credentialSets as unknown as SatisfiedCredentialSet[] } : {}),
  };
}

/** `verify-authorization-response`: the session's new state, with what it proved when verified. */
export function toAuthorizationResponseOutcome(settled: SettledOutcome): AuthorizationResponseOutcome {
  if (settled.state === 'ResponseVerified') return toPresentationResponse(settled.session, settled.result);
  return { id: settled.session.id, state: 'Error', error: settled.error };
}
