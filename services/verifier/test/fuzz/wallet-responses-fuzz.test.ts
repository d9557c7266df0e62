import fc from 'fast-check';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { describe, expect } from 'vitest';
import { FUZZ_SEED, fuzzRunsPerRoute } from '@tessera/service-kit/testing';
import { bothQuery } from '../support/dcql-queries.js';
import { verifierTest } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { presentMdl, presentPid } from '../support/holder.js';
import { createIssuer, issueMdl, issuePid, newHolder, type Holder, type TestIssuer } from '../support/issuers.js';
import { ORG } from '../support/management.js';
import { allStoredResults, storedSession } from '../support/stored-rows.js';
import {
  jweMayEnd,
  materialise,
  responseArb,
  stateArb,
  vpTokenArb,
  vpTokenTextArb,
  type FuzzBase,
  type ResponseStringPlan,
  type StatePlan,
} from '../support/wallet-fuzz-arbitraries.js';

// Targeted fuzz of the two endpoints that take a wallet's answer:
// malformed vp_tokens, SD-JWTs, mdoc CBOR and JWEs, with a fixed seed and
// FUZZ_RUNS cases per session kind. Invariants: never 5xx; OAuth-shaped errors
// on the wallet endpoint, the platform body on the DC API one; a response that
// cannot be parsed, decrypted or matched leaves the session as it was; any
// other failing response may end it only in `Error` with a code of VERIFIER.md's
// table; nothing ever verifies; the process stays healthy.
const ORIGIN = 'https://rp.tessera.test';
const RUNS = fuzzRunsPerRoute(60);
const MODES = ['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'] as const;
type Mode = (typeof MODES)[number];

/** Codes a well-formed but failing response may end a session with (VERIFIER.md, Verification), and a wallet error. */
const VERIFICATION_CODES = [
  'INVALID_VP_TOKEN',
  'ISSUER_SIGNATURE_INVALID',
  'DISCLOSURE_INVALID',
  'ISSUER_NOT_TRUSTED',
  'CREDENTIAL_EXPIRED',
  'CREDENTIAL_NOT_YET_VALID',
  'KEY_BINDING_INVALID',
  'NONCE_MISMATCH',
  'AUDIENCE_MISMATCH',
  'KEY_BINDING_STALE',
  'TRANSACTION_DATA_MISMATCH',
  'DEVICE_SIGNATURE_INVALID',
  'DCQL_NOT_SATISFIED',
  'CREDENTIAL_REVOKED',
  'CREDENTIAL_SUSPENDED',
  'STATUS_LIST_UNAVAILABLE',
  'WALLET_ERROR',
];

/** The app under attack, ORG's verifier `desk` trusting a fuzz issuer, and what the mutations start from. */
interface FuzzTarget {
  h: Harness;
  headers: { authorization: string };
  base: FuzzBase;
  otherJwk: JWK;
  holder: Holder;
  issuer: TestIssuer;
}

const test = verifierTest.extend(
  'target',
  { scope: 'file' },
  async ({ harness: h, api, desk: _desk }): Promise<FuzzTarget> => {
    const issuer = await createIssuer('Fuzz Issuer');
    const holder = await newHolder();
    expect((await api('POST', `/v1/orgs/${ORG}/oid4vp/trust-anchors`, { certificatePem: issuer.ca.pem })).status).toBe(
      201,
    );
    // Valid in form, signed by a trusted issuer, but bound to another request: mutations start from real structure.
    const elsewhere = {
      clientId: 'x509_hash:elsewhere',
      nonce: 'another-sessions-nonce',
      responseUri: 'https://verifier.tessera.test/oid4vp/authorization-responses/elsewhere',
      responseMode: 'direct_post',
    };
    const base = {
      sdJwt: await presentPid(await issuePid(issuer, holder), holder, elsewhere),
      mdoc: await presentMdl(await issueMdl(issuer, holder), holder, elsewhere),
    };
    const otherJwk = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).publicKey);
    return { h, headers: await h.auth(ORG), base, otherJwk, holder, issuer };
  },
);

interface Session {
  id: string;
  authorizationRequestId: string;
  payloadState: string;
  nonce: string;
  clientId: string;
  responseUri?: string;
  jwk?: JWK;
}

async function newSession({ h, headers }: FuzzTarget, responseMode: Mode): Promise<Session> {
  const payload = {
    dcql: bothQuery(),
    responseMode,
    ...(responseMode.startsWith('dc_api') ? { expectedOrigins: [ORIGIN] } : {}),
  };
  const created = await h.app.inject({
    method: 'POST',
    url: `/v1/orgs/${ORG}/oid4vp/presentation?verifierId=desk`,
    headers,
    payload,
  });
  expect(created.statusCode, created.body).toBe(201);
  const data = created.json().data;
  // The session's public encryption key, as stored (reading the request object would count against its limit).
  const row = await storedSession(h.testDb.database, data.id);
  return { ...data, ...(row?.encryptionPublicJwk ? { jwk: row.encryptionPublicJwk as JWK } : {}) };
}

async function sessionState({ h }: FuzzTarget, id: string) {
  // As stored: a read through the API would persist an expiry and count against the session's limits.
  const { state, errorCode, errorMessage, updatedAt } = (await storedSession(h.testDb.database, id))!;
  return { state, errorCode, errorMessage, updatedAt };
}

type Plan = {
  fields: Record<string, unknown>;
  state: StatePlan;
  response?: ResponseStringPlan;
  origin?: boolean;
  wrapper?: string;
};

/** Per mode: what is sent (a plan fast-check generates) and whether a wallet holding the session could have sent it. */
const planArb = (base: FuzzBase): Record<Mode, fc.Arbitrary<Plan>> => ({
  direct_post: fc.oneof(
    {
      arbitrary: fc
        .record({ text: vpTokenTextArb(base), state: stateArb })
        .map(({ text, state }) => ({ fields: { vp_token: text }, state })),
      weight: 8,
    },
    fc.record({
      fields: fc.record(
        { error: fc.string({ maxLength: 30 }), response: fc.string({ maxLength: 30 }) },
        { requiredKeys: [] },
      ),
      state: stateArb,
    }),
  ),
  'direct_post.jwt': fc.record({
    fields: fc.constant({}),
    state: fc.constant('absent' as const),
    response: responseArb(base),
  }),
  dc_api: fc.record({
    fields: fc.oneof(
      {
        arbitrary: fc
          .tuple(fc.constantFrom('vp_token', 'id_token'), vpTokenArb(base))
          .map(([name, value]) => ({ [name]: value })),
        weight: 6,
      },
      fc.dictionary(
        fc.constantFrom('vp_token', 'id_token', 'response', 'error', 'state', 'x'),
        fc.anything({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
    ),
    state: fc.constant('absent' as const),
    origin: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, fc.constant(false)),
  }),
  'dc_api.jwt': fc.record({
    fields: fc.constant({}),
    state: fc.constant('absent' as const),
    response: responseArb(base),
    origin: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, fc.constant(false)),
  }),
});

/** True when the request reaches verification: parseable, decryptable, matching state and origin. */
function mayEnd(mode: Mode, plan: Plan): boolean {
  if (plan.response) return plan.origin !== false && jweMayEnd(plan.response, mode === 'direct_post.jwt');
  if (mode === 'dc_api') {
    const present = ['vp_token', 'id_token', 'response', 'error'].filter((name) => plan.fields[name] !== undefined);
    const value = plan.fields[present[0]!];
    return (
      plan.origin !== false &&
      present.length === 1 &&
      (present[0] === 'error' || (typeof value === 'object' && value !== null && !Array.isArray(value)))
    );
  }
  // A wallet error ends a redirect session only with the session's state (issue 28, item 7).
  if (typeof plan.fields.error === 'string') return plan.state === 'correct';
  if (plan.fields.response !== undefined || typeof plan.fields.vp_token !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(plan.fields.vp_token);
    return plan.state === 'correct' && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

async function send({ h, headers, otherJwk }: FuzzTarget, mode: Mode, plan: Plan, session: Session) {
  const state =
    plan.state === 'correct'
      ? { state: session.payloadState }
      : plan.state === 'wrong'
        ? { state: 'not-the-state' }
        : {};
  const response =
    plan.response && session.jwk
      ? await materialise(plan.response, session.jwk, session.payloadState, otherJwk)
      : undefined;
  if (mode.startsWith('dc_api')) {
    const authorizationResponse = response !== undefined ? { response } : plan.fields;
    const payload = {
      verificationSessionId: session.id,
      authorizationResponse,
      origin: plan.origin === false ? 'https://evil.tessera.test' : ORIGIN,
    };
    return h.app.inject({
      method: 'POST',
      url: `/v1/orgs/${ORG}/oid4vp/verify-authorization-response`,
      headers,
      payload,
    });
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({
    ...plan.fields,
    ...state,
    ...(response !== undefined ? { response } : {}),
  }))
    if (typeof value === 'string') form.set(name, value);
  return h.app.inject({
    method: 'POST',
    url: `/oid4vp/authorization-responses/${session.authorizationRequestId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
}

describe('wallet response fuzzing', () => {
  test.for(MODES)(
    '%s: never 5xx, the right error body, junk leaves the session unchanged, nothing verifies',
    { timeout: 240000 },
    async (mode, { target }) => {
      const problems: string[] = [];
      let session = await newSession(target, mode);
      let ended = 0;
      const plans = fc.sample(planArb(target.base)[mode], { seed: FUZZ_SEED + MODES.indexOf(mode), numRuns: RUNS });
      for (const plan of plans) {
        const before = await sessionState(target, session.id);
        const response = await send(target, mode, plan, session);
        const after = await sessionState(target, session.id);
        const where = `${mode} ${JSON.stringify(plan).slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 500) problems.push(`5xx: ${where}`);
        const body = response.json() as Record<string, any>;
        if (response.statusCode >= 400) {
          const shaped = mode.startsWith('dc_api')
            ? body.statusCode === response.statusCode && /^[A-Z_]+$/.test(body.code) && typeof body.message === 'string'
            : typeof body.error === 'string' && typeof body.error_description === 'string' && body.code === undefined;
          if (!shaped) problems.push(`error body: ${where}`);
        }
        if (after.state === 'ResponseVerified' || body.data?.state === 'ResponseVerified')
          problems.push(`verified: ${where}`);
        const unchanged = JSON.stringify(after) === JSON.stringify(before);
        if (!unchanged) {
          if (!mayEnd(mode, plan))
            problems.push(`junk changed the session (${after.state} ${after.errorCode}): ${where}`);
          else if (after.state !== 'Error' || !VERIFICATION_CODES.includes(after.errorCode ?? ''))
            problems.push(`ended with ${after.state} ${after.errorCode}: ${where}`);
          else if (
            mode.startsWith('dc_api') &&
            (response.statusCode !== 200 || body.data?.error?.code !== after.errorCode)
          )
            problems.push(`DC API answer does not report the end: ${where}`);
          ended += 1;
          session = await newSession(target, mode);
        } else if (response.statusCode === 200 && !mode.startsWith('dc_api')) {
          problems.push(`200 without a state change: ${where}`);
        }
      }
      expect(problems).toEqual([]);
      // Some cases must reach verification, or the fuzz would only test the parser.
      expect(ended).toBeGreaterThan(0);
      expect(ended).toBeLessThan(RUNS);
    },
  );

  test('stays healthy: no results were stored, and a real wallet answer still verifies', async ({ target }) => {
    const { h, issuer, holder } = target;
    expect(await allStoredResults(h.testDb.database)).toHaveLength(0);
    expect((await h.app.inject({ url: '/health' })).statusCode).toBe(200);
    const session = await newSession(target, 'direct_post');
    const facts = {
      clientId: session.clientId,
      nonce: session.nonce,
      responseUri: session.responseUri!,
      responseMode: 'direct_post',
    };
    const vpToken = { pid: [await presentPid(await issuePid(issuer, holder), holder, facts)] };
    const form = new URLSearchParams({ vp_token: JSON.stringify(vpToken), state: session.payloadState }).toString();
    const answered = await h.app.inject({
      method: 'POST',
      url: `/oid4vp/authorization-responses/${session.authorizationRequestId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await sessionState(target, session.id)).state).toBe('ResponseVerified');
  });
});
