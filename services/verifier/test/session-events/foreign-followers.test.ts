import { describe, expect } from 'vitest';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import { expectHubEmpty, openEventStream, stateOf } from './support.js';

// Session event followers are keyed by (organisation, session id) (issue 28, item 6):
// another organisation asking for the same session id — through its own path, with
// its own valid token, answered 404 — can never attach to, re-key or end the owner's
// stream. Before, the hub keyed followers by session id alone: a foreign request that
// registered first made the entry the owner then joined carry the foreign organisation,
// every re-read of it found nothing, and the owner's stream never saw the session end.
const test = e2eTest();

const ROUNDS = 3;
const FOREIGN_REQUESTS = 20;

describe('followers are keyed by organisation', () => {
  test(`${FOREIGN_REQUESTS} parallel foreign requests while the owner's stream attaches: the owner still gets the terminal event within a second`, async ({
    e2e: e,
    harness: h,
  }) => {
    const foreignAuth = await h.auth(OTHER_ORG, ['owner']);
    const ownerAuth = await h.auth(ORG);
    for (let round = 0; round < ROUNDS; round += 1) {
      const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
      // The foreign requests go out first, so they are registering while the owner's stream attaches.
      const foreign = Array.from({ length: FOREIGN_REQUESTS }, () =>
        openEventStream(e.url, session.id, foreignAuth, OTHER_ORG),
      );
      const owner = openEventStream(e.url, session.id, ownerAuth);
      const refused = await Promise.all(foreign);
      for (const answer of refused) {
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      }
      const stream = await owner;
      expect(stream.status).toBe(200);
      expect(stateOf((await stream.waitForEvents(1))[0]!).state).toBe('RequestCreated');

      const answered = await e.postForm(session.responseUri!, {
        error: 'access_denied',
        state: session.payloadState,
      });
      expect(answered.status).toBe(200);
      const ended = Date.now();
      const [, terminal] = await stream.waitForEvents(2, 1000);
      expect(Date.now() - ended).toBeLessThan(1000);
      expect(stateOf(terminal!)).toMatchObject({ id: session.id, state: 'Error', error: { code: 'WALLET_ERROR' } });
      await stream.waitForEnd(1000);
    }
    await expectHubEmpty(h);
  });
});
