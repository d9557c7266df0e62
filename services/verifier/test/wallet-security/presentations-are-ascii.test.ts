import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { checkVpTokenShape } from '../../src/verification/check-vp-token-shape.js';
import { loadDcqlQuery } from '../../src/verification/load-dcql-query.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import {
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  type RequestFacts,
} from '../support/holder.js';
import { issuePid, newHolder, type Holder } from '../support/issuers.js';
import { notAcceptedDescription, verificationErrorText } from '../support/session-error-texts.js';

// An SD-JWT presentation is ASCII (base64url segments and "~"): sd_hash covers
// its bytes, and no encoding of a non-ASCII string is the one the wallet hashed.
// A vp_token entry with a non-ASCII character is INVALID_VP_TOKEN, before any hashing.
const test = e2eTest();

const ORIGIN = 'https://rp.tessera.test';

/**
 * A presentation whose SD-JWT part is `mangle`d, with a KB-JWT whose sd_hash is
 * computed over the UTF-8 bytes of the mangled text: a verifier hashing those
 * bytes would find sd_hash right; only the character set is wrong.
 */
async function mangledPresentation(
  e: E2e,
  holder: Holder,
  facts: RequestFacts,
  mangle: (sdJwt: string) => string,
  origin?: string,
) {
  const issued = await issuePid(e.issuer, holder);
  const valid = await presentPid(issued, holder, facts, origin ? { origin } : {});
  const sdJwt = mangle(valid.slice(0, valid.lastIndexOf('~') + 1));
  const kbJwt = await new SignJWT({
    nonce: facts.nonce,
    aud: origin ? `origin:${origin}` : facts.clientId,
    iat: Math.floor(Date.now() / 1000) - 2,
    sd_hash: createHash('sha256').update(sdJwt, 'utf8').digest('base64url'),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .sign(holder.privateKey);
  return `${sdJwt}${kbJwt}`;
}

/** "ũ" (U+0169) is "i" in the low byte: a Latin-1/"ascii" encoding would hash it as the original. */
const twinOfI = (sdJwt: string) => {
  const at = sdJwt.indexOf('i', sdJwt.indexOf('~'));
  return `${sdJwt.slice(0, at)}\u0169${sdJwt.slice(at + 1)}`;
};
const appendE = (sdJwt: string) => `${sdJwt.slice(0, -1)}é~`;

describe('non-ASCII presentations are refused before hashing', () => {
  test.for([
    ['an é in a disclosure', appendE],
    ['a character whose low byte is an ASCII letter', twinOfI],
  ] as const)(
    'direct_post: %s → INVALID_VP_TOKEN naming the character position',
    async ([_what, mangle], { e2e: e }) => {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
      const holder = await newHolder();
      const facts = requestFacts(await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!));
      const presentation = await mangledPresentation(e, holder, facts, mangle);
      const answered = await e.postForm(session.responseUri!, {
        vp_token: JSON.stringify({ pid: [presentation] }),
        state: session.payloadState,
      });
      expect(answered).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: notAcceptedDescription('INVALID_VP_TOKEN', 'pid') },
      });
      const record = await e.readSession(session.id);
      expect(record).toMatchObject({
        state: 'Error',
        error: { code: 'INVALID_VP_TOKEN', message: verificationErrorText('INVALID_VP_TOKEN', 'pid') },
      });
      // The check that refused it, and where: the engine's own diagnosis (never stored or returned).
      const query = loadDcqlQuery(sdJwtQuery());
      if (!query.ok) throw new Error(query.message);
      const shape = checkVpTokenShape({ vpToken: { pid: [presentation] }, query: query.query });
      expect(shape.ok ? '' : shape.failure.message).toContain(
        `non-ASCII character at position ${[...presentation].findIndex((char) => char.charCodeAt(0) > 0x7f)}`,
      );
    },
  );

  test('over the DC API too (the answer is 200 with state Error)', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'dc_api', expectedOrigins: [ORIGIN] });
    const holder = await newHolder();
    const facts = requestFacts(await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, ORIGIN));
    const presentation = await mangledPresentation(e, holder, facts, twinOfI, ORIGIN);
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: { vp_token: { pid: [presentation] } },
      origin: ORIGIN,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({
      state: 'Error',
      error: { code: 'INVALID_VP_TOKEN', message: verificationErrorText('INVALID_VP_TOKEN', 'pid') },
    });
    expect(answered.body.data).not.toHaveProperty('presentations');
  });

  test('control: the same presentation, ASCII, with its KB-JWT built the same way, verifies', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const holder = await newHolder();
    const facts = requestFacts(await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!));
    const presentation = await mangledPresentation(e, holder, facts, (sdJwt) => sdJwt);
    const answered = await e.postForm(session.responseUri!, {
      vp_token: JSON.stringify({ pid: [presentation] }),
      state: session.payloadState,
    });
    expect(answered).toEqual({ status: 200, body: {} });
    expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
  });
});
