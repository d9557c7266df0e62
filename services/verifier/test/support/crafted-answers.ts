// Answering sessions over real HTTP with crafted credentials (every part of the SD-JWT VC
// adjustable), and reading the outcome back through the management API: what the rule
// tests of the wallet security, data minimisation, status list and certificate folders share.
import { expect } from 'vitest';
import type { JWK } from 'jose';
import type { PresentationResponse, PresentationSession } from '@tessera/contracts';
import { issueSdJwtVc, type IssuedSdJwtVc } from '../verification/support/sd-jwt.js';
import type { E2e } from './e2e.js';
import { notAcceptedDescription, verificationErrorText } from './session-error-texts.js';
import {
  buildResponse,
  dcApiPayload,
  presentMdl,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  submitResponse,
  type RequestFacts,
} from './holder.js';
import { ISSUER_HOST, issueMdl, newHolder, PID_VCT, type Holder, type TestIssuer } from './issuers.js';

const DAY_SECONDS = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export type Present = (holder: Holder, facts: RequestFacts) => Promise<string>;

export interface IssueCredentialOptions {
  /** The x5c header (leaf first); default the issuer's leaf alone. */
  x5c?: string[];
  /** Claims in the issuer-signed payload, over the defaults (vct, iss, iat, exp); `undefined` removes one. */
  claims?: Record<string, unknown>;
  /** Selectively disclosable claims; default given_name, family_name, age_over_18. */
  disclosable?: Record<string, unknown>;
}

/** An SD-JWT VC from `issuer`, bound to the holder: the PID of ./issuers.ts with every part adjustable. */
export function issueCredential(
  issuer: TestIssuer,
  holder: Holder,
  options: IssueCredentialOptions = {},
): Promise<IssuedSdJwtVc> {
  const claims: Record<string, unknown> = {
    vct: PID_VCT,
    iss: `https://${ISSUER_HOST}`,
    iat: nowSeconds() - 3600,
    exp: nowSeconds() + DAY_SECONDS,
    ...options.claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return issueSdJwtVc({
    signingKey: issuer.leaf.keys.privateKey,
    x5c: options.x5c ?? [issuer.leaf.x5c],
    claims,
    disclosable: options.disclosable ?? { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true },
    holderPublicJwk: holder.publicJwk as JWK,
  });
}

/** Presents every disclosure of `issued` (or those named) with a KB-JWT for the request. */
export function presentAll(issued: IssuedSdJwtVc, reveal?: string[]): Present {
  return (holder, facts) => presentPid(issued, holder, facts, { reveal: reveal ?? Object.keys(issued.disclosures) });
}

/** A redirect session answered through the wallet library with the presentation for `queryId`. */
export async function answerRedirect(
  e: E2e,
  session: { authorizationRequestUri?: string },
  queryId: string,
  present: Present,
  holder?: Holder,
) {
  const wallet = holder ?? (await newHolder());
  if (!session.authorizationRequestUri)
    throw new Error('answerRedirect needs a redirect session (one with authorizationRequestUri)');
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri);
  const built = await buildResponse(e.wallet, resolved, { [queryId]: [await present(wallet, requestFacts(resolved))] });
  return submitResponse(e.wallet, resolved, built);
}

/** A DC API session (`mdl` query) answered with a fresh mDL of `e.issuer` from `origin`: the platform's answer to the relying party. */
export async function answerMdlOverDcApi(
  e: E2e,
  session: { id: string; dcApiRequest?: { data: unknown } },
  origin: string,
) {
  if (!session.dcApiRequest) throw new Error('answerMdlOverDcApi needs a DC API session (one with dcApiRequest)');
  const holder = await newHolder();
  const resolved = await resolveDcApiRequest(e.wallet, session.dcApiRequest.data as never, origin);
  const presentation = await presentMdl(await issueMdl(e.issuer, holder), holder, requestFacts(resolved), { origin });
  const built = await buildResponse(e.wallet, resolved, { mdl: [presentation] }, origin);
  return e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: dcApiPayload(built), origin });
}

/** The wallet was answered 200 and the session reads ResponseVerified; returns the stored result. */
export async function expectVerified(e: E2e, session: { id: string }, answered: { status: number; body: unknown }) {
  expect(answered.status, JSON.stringify(await e.readSession(session.id))).toBe(200);
  expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
  const result = await e.readResult(session.id);
  expect(result.status).toBe(200);
  return result.body.data as PresentationResponse;
}

/**
 * The wallet was refused (400) and the session ended in Error with `code` and its fixed
 * sentence about credential query `queryId` (issue 28, item 3: the session's message, and the
 * wallet's, say nothing else); no presentation data can be read.
 */
export async function expectFailedWith(
  e: E2e,
  session: { id: string },
  answered: { status: number; body: unknown },
  code: string,
  queryId = 'pid',
) {
  expect(answered.status).toBe(400);
  expect(answered.body).toEqual({ error: 'invalid_request', error_description: notAcceptedDescription(code, queryId) });
  const record = await e.readSession(session.id);
  expect(record, JSON.stringify(record)).toMatchObject({
    state: 'Error',
    error: { code, message: verificationErrorText(code, queryId) },
  });
  expect((await e.readResult(session.id)).status).toBe(409);
  return record.error as NonNullable<PresentationSession['error']>;
}
