import { describe, expect } from 'vitest';
import { checkDisclosures } from '../../src/verification/check-disclosures.js';
import { issueSdJwtVc } from '../verification/support/sd-jwt.js';
import { answerRedirect, expectFailedWith, expectVerified, presentAll } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { ISSUER_HOST, PID_VCT, type Holder, type TestIssuer } from '../support/issuers.js';

// SD-JWT VC §3.2.2: iss, nbf, exp, cnf, vct, vct#integrity and status are never
// selectively disclosable. A credential whose issuer made one a Disclosure (so
// the signed payload lacks it, e.g. no exp) fails with DISCLOSURE_INVALID.
const test = e2eTest();

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A credential with its registered claims signed, except those named in
 * `disclosed`, which the issuer made Disclosures (and the wallet presents).
 * `status` appears only as a Disclosure: signed, it would send the verifier to
 * a status list this test does not serve.
 */
function issue(issuer: TestIssuer, holder: Holder, disclosed: string[]) {
  const registered: Record<string, unknown> = {
    iss: `https://${ISSUER_HOST}`,
    nbf: nowSeconds() - 3600,
    exp: nowSeconds() + 86_400,
    vct: PID_VCT,
    'vct#integrity': 'sha256-9cLlJNXN-TsMk-PmKjZ5t0WRL5ca_xGgX3c1VLmXfh',
    iat: nowSeconds() - 3600,
    sub: 'user-42',
    status: { status_list: { idx: 0, uri: 'https://status.tessera.test/lists/1' } },
    cnf: { jwk: holder.publicJwk },
  };
  const signed: Record<string, unknown> = {};
  const moved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(registered)) {
    if (disclosed.includes(name)) moved[name] = value;
    else if (name !== 'status' && name !== 'cnf') signed[name] = value;
  }
  return issueSdJwtVc({
    signingKey: issuer.leaf.keys.privateKey,
    x5c: [issuer.leaf.x5c],
    // An undefined vct leaves the payload without one (JSON drops it) when vct is a Disclosure.
    claims: { ...signed, ...(disclosed.includes('vct') ? { vct: undefined } : {}) },
    disclosable: { given_name: 'Erika', family_name: 'Mustermann', ...moved },
    ...(disclosed.includes('cnf') ? {} : { holderPublicJwk: holder.publicJwk }),
  });
}

async function answerWith(e: E2e, disclosed: string[]) {
  const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issue(e.issuer, holder, disclosed))(holder, facts),
  );
  return { session, answered };
}

describe('registered claims stay in the issuer-signed payload', () => {
  test.for(['iss', 'nbf', 'exp', 'cnf', 'vct', 'vct#integrity', 'status'])(
    'a Disclosure of %s → DISCLOSURE_INVALID, nothing reaches the relying party',
    async (name, { e2e: e }) => {
      const { session, answered } = await answerWith(e, [name]);
      await expectFailedWith(e, session, answered, 'DISCLOSURE_INVALID');
      // Which rule refused it is the engine's to say (the session's message is the code's fixed sentence).
      expect(
        checkDisclosures({
          payload: { _sd: ['digest-of-the-disclosure'] },
          disclosures: [{ digest: 'digest-of-the-disclosure', name, value: 'x' }],
        }),
      ).toBe(`the registered claim "${name}" is a Disclosure, but it must be in the issuer-signed payload`);
    },
  );

  test('control: the same credential with every registered claim signed verifies; iat and sub may be Disclosures', async ({
    e2e: e,
  }) => {
    const signed = await answerWith(e, []);
    await expectVerified(e, signed.session, signed.answered);
    const disclosedIatSub = await answerWith(e, ['iat', 'sub']);
    await expectVerified(e, disclosedIatSub.session, disclosedIatSub.answered);
  });
});
