import { describe, expect } from 'vitest';
import { answerWithCredential } from '../support/answers.js';
import { expectVerified } from '../support/crafted-answers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';
import { OTHER_ORG, oid4vpPath } from '../support/management.js';

// The organisation's anchors are read with the session a wallet answers (one
// statement): they must be that session's organisation's, never another's.
const test = e2eTest();

describe('trust anchors are per organisation', () => {
  test("an issuer anchored by one organisation is not trusted in another organisation's session", async ({
    e2e,
    api,
  }) => {
    const trusted = await e2e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    await expectVerified(e2e, trusted, await answerWithCredential(e2e, 'sd-jwt', trusted));

    expect(
      (await api('POST', `${oid4vpPath(OTHER_ORG)}/verifier`, { verifierId: 'desk' }, { org: OTHER_ORG })).status,
    ).toBe(201);
    const created = await api(
      'POST',
      `${oid4vpPath(OTHER_ORG)}/presentation?verifierId=desk`,
      { dcql: sdJwtQuery(), responseMode: 'direct_post' },
      { org: OTHER_ORG },
    );
    expect(created.status, created.raw).toBe(201);
    const answered = await answerWithCredential(e2e, 'sd-jwt', created.body.data);
    expect(answered.status).toBe(400);
    const record = await api(
      'GET',
      `${oid4vpPath(OTHER_ORG)}/verifier-presentation?id=${created.body.data.id}`,
      undefined,
      { org: OTHER_ORG },
    );
    expect(record.body.data).toMatchObject({ state: 'Error', error: { code: 'ISSUER_NOT_TRUSTED' } });
  });
});
