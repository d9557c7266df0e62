import { describe, expect } from 'vitest';
import { answerWithCredential } from '../support/answers.js';
import { bothQuery, mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { MDL_DOCTYPE, PID_VCT } from '../support/issuers.js';

// A wallet answering through the response endpoint (direct_post, direct_post.jwt) over real HTTP.
const test = e2eTest();

describe.each([
  ['sd-jwt', sdJwtQuery],
  ['mdoc', mdocQuery],
] as const)('%s presented over the redirect response modes', (format, query) => {
  test.for(['direct_post', 'direct_post.jwt'])(
    '%s: 200 {}, session ResponseVerified, result readable, event published',
    async (responseMode, { e2e: e, sessionEvents }) => {
      const session = await e.createSession({ dcql: query(), responseMode });
      const answered = await answerWithCredential(e, format, session);
      expect(answered).toEqual({ status: 200, body: {} });
      expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
      await sessionEvents.waitFor(session.id, 'ResponseVerified');
      const result = await e.readResult(session.id);
      expect(result.status).toBe(200);
      const data = result.body.data;
      expect(data).toMatchObject({ id: session.id, state: 'ResponseVerified', verifiedAt: expect.any(String) });
      expect(data.presentations).toHaveLength(1);
      if (format === 'sd-jwt') {
        expect(data.presentations[0]).toMatchObject({
          credentialQueryId: 'pid',
          format: 'dc+sd-jwt',
          vct: PID_VCT,
          holderBinding: true,
          claims: { given_name: 'Erika', family_name: 'Mustermann' },
        });
        expect(data.presentations[0].claims).not.toHaveProperty('age_over_18');
        expect(data.presentations[0].claims).not.toHaveProperty('cnf');
      } else {
        expect(data.presentations[0]).toMatchObject({
          credentialQueryId: 'mdl',
          format: 'mso_mdoc',
          doctype: MDL_DOCTYPE,
          holderBinding: true,
          claims: { 'org.iso.18013.5.1': { family_name: 'Mustermann' } },
        });
      }
      expect(data.presentations[0].issuer).toContain('PID Issuer');
    },
  );
});

describe('credential sets and same-device redirect', () => {
  test('a query with credential_sets is satisfied by its second option (mdoc only)', async ({ e2e: e }) => {
    const session = await e.createSession({ dcql: bothQuery(), responseMode: 'direct_post' });
    expect(await answerWithCredential(e, 'mdoc', session)).toEqual({ status: 200, body: {} });
    const data = (await e.readResult(session.id)).body.data;
    expect(data.credentialSets).toEqual([{ options: [['pid'], ['mdl']], required: true, satisfiedOption: 1 }]);
    expect(data.presentations.map((p: { credentialQueryId: string }) => p.credentialQueryId)).toEqual(['mdl']);
  });

  test('answers { redirect_uri } after a verified direct_post when the session has one', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: sdJwtQuery(),
      responseMode: 'direct_post',
      redirectUri: 'https://rp.tessera.test/done',
    });
    // The redirect carries a fresh response_code (its own tests are in test/same-device-redirect/).
    expect(await answerWithCredential(e, 'sd-jwt', session)).toEqual({
      status: 200,
      body: {
        redirect_uri: expect.stringMatching(/^https:\/\/rp\.tessera\.test\/done\?response_code=[A-Za-z0-9_-]{43}$/),
      },
    });
  });
});
