import { describe, expect } from 'vitest';
import { answerWithCredential } from '../support/answers.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';

// A wallet answering over the Digital Credentials API: the relying party forwards its answer to `verify-authorization-response`.
const ORIGIN = 'https://rp.tessera.test';
const test = e2eTest();

describe.each([
  ['sd-jwt', sdJwtQuery],
  ['mdoc', mdocQuery],
] as const)('%s presented over the DC API response modes', (format, query) => {
  test.for(['dc_api', 'dc_api.jwt'])(
    '%s: 200 with the verified presentation in data',
    async (responseMode, { e2e: e }) => {
      const session = await e.createSession({ dcql: query(), responseMode, expectedOrigins: [ORIGIN] });
      const answered = await answerWithCredential(e, format, session, ORIGIN);
      expect(answered.status).toBe(200);
      expect(answered.body.data).toMatchObject({
        id: session.id,
        state: 'ResponseVerified',
        verifiedAt: expect.any(String),
        presentations: [expect.objectContaining({ holderBinding: true })],
      });
      expect(answered.body.data.error).toBeUndefined();
      expect((await e.readSession(session.id)).state).toBe('ResponseVerified');
      expect((await e.readResult(session.id)).body.data.presentations).toEqual(answered.body.data.presentations);
    },
  );
});
