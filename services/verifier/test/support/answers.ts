// A wallet answering a session of the end-to-end setting with a credential of the
// setting's issuer (resolved by the wallet library, presented for this request),
// and what a refused answer must leave behind.
import { expect } from 'vitest';
import type { CreatedPresentation, PresentationSession } from '@tessera/contracts';
import type { E2e } from './e2e.js';
import type { SessionEvents } from './events.js';
import {
  buildResponse,
  dcApiPayload,
  presentMdl,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  submitResponse,
  type ResolvedRequest,
} from './holder.js';
import { issueMdl, issuePid, newHolder } from './issuers.js';

export type CredentialFormat = 'sd-jwt' | 'mdoc';

/** The request of `session` as the wallet resolves it: by reference (redirect modes), or from `dcApiRequest` over the DC API from `origin`. */
export function resolveSession(e2e: E2e, session: CreatedPresentation, origin?: string): Promise<ResolvedRequest> {
  return origin
    ? resolveDcApiRequest(e2e.wallet, session.dcApiRequest!.data, origin)
    : resolveRedirectRequest(e2e.wallet, session.authorizationRequestUri!);
}

/** A valid vp_token for the session (an SD-JWT VC for the query `pid`), and the request it answers. */
export async function validPidToken(e2e: E2e, session: CreatedPresentation, origin?: string) {
  const holder = await newHolder();
  const resolved = await resolveSession(e2e, session, origin);
  const vpToken = {
    pid: [
      await presentPid(await issuePid(e2e.issuer, holder), holder, requestFacts(resolved), origin ? { origin } : {}),
    ],
  };
  return { resolved, vpToken };
}

/** A wallet holding one credential of `format` answers the session through its response mode (over the DC API when `origin` is given). */
export async function answerWithCredential(
  e2e: E2e,
  format: CredentialFormat,
  session: CreatedPresentation,
  origin?: string,
) {
  const holder = await newHolder();
  const resolved = await resolveSession(e2e, session, origin);
  const facts = requestFacts(resolved);
  const presentation =
    format === 'sd-jwt'
      ? await presentPid(await issuePid(e2e.issuer, holder), holder, facts, origin ? { origin } : {})
      : await presentMdl(await issueMdl(e2e.issuer, holder), holder, facts, origin ? { origin } : {});
  const built = await buildResponse(
    e2e.wallet,
    resolved,
    { [format === 'sd-jwt' ? 'pid' : 'mdl']: [presentation] },
    origin,
  );
  if (origin)
    return e2e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: dcApiPayload(built), origin });
  return submitResponse(e2e.wallet, resolved, built);
}

/** The session is as it was: still open in `state`, no error, no Error or ResponseVerified event published for it. */
export async function expectSessionUnchanged(
  e2e: E2e,
  sessionEvents: SessionEvents,
  session: CreatedPresentation,
  state: PresentationSession['state'] = 'RequestUriRetrieved',
) {
  const record = await e2e.readSession(session.id);
  expect(record.state).toBe(state);
  expect(record.error).toBeUndefined();
  expect([...sessionEvents.of(session.id, 'Error'), ...sessionEvents.of(session.id, 'ResponseVerified')]).toEqual([]);
}

/** The OAuth error body of the wallet endpoints for an unusable answer. */
export const invalidRequest = { error: 'invalid_request', error_description: expect.any(String) };
