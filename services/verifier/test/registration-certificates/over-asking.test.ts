import { describe, expect } from 'vitest';
import { intentResolveRpc, type IntentResolveResult } from '@tessera/contracts';
import { serveRequests } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { ORG, type MemberCall } from '../support/management.js';
import { mdocPidQuery, pidQuery, registeredDeskTest } from '../support/relying-party.js';

// Asking only for what was registered (issue 25, item 4): a session or template whose DCQL
// asks for a credential type or claim outside the verifier's registered intended uses is
// refused 400 OVER_ASKING, one details entry per path — unless the verifier's
// overAskingPolicy is `warn`: then it is created and `overAsking` lists the paths.
const V = `/v1/orgs/${ORG}/oid4vp`;
const ECOSYSTEM = '8d5b5a3e-4f4c-4c1b-9d57-3f1a2a6c0f11';

const test = registeredDeskTest().extend(
  'ecosystem',
  { scope: 'file' },
  async ({ harness, api, registered: _registered }, { onCleanup }) => {
    // A template of ORG's own, which the stub ecosystem maps the intent `age` to.
    const query = pidQuery([['given_name'], ['birth_date']]);
    const template = await api('POST', `${V}/verification-template`, {
      name: 'Beyond the registration',
      templateJson: { dcql: { query } },
      signerOption: 'X509_P256',
    });
    expect(template.status, template.raw).toBe(201);
    const bus = await harness.connectPeer('ecosystem-stub');
    const stop = serveRequests(bus, intentResolveRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<IntentResolveResult> => ({
        intentId: 'intent-age',
        intent: request.intent,
        templateId: template.body.data.id as string,
        scope: 'organisation',
      }),
    });
    onCleanup(async () => {
      stop();
      await bus.close();
    });
    return { templateId: template.body.data.id as string };
  },
);

const createSession = (api: MemberCall, dcql: unknown, verifierId = 'desk') =>
  api('POST', `${V}/presentation?verifierId=${verifierId}`, { dcql, responseMode: 'direct_post.jwt' });

const setPolicy = async (api: MemberCall, overAskingPolicy: 'refuse' | 'warn') => {
  const response = await api('PUT', `${V}/verifier/desk`, { overAskingPolicy });
  expect(response.status, response.raw).toBe(200);
  expect(response.body.data.overAskingPolicy).toBe(overAskingPolicy);
};

/** A query asking for a claim the PID registration lacks and for a credential type never registered. */
function beyondQuery() {
  const query = pidQuery([['given_name'], ['birth_date']]);
  query.credentials.push({
    id: 'diploma',
    format: 'dc+sd-jwt',
    meta: { vct_values: ['https://diplomas.example/bachelor'] },
    claims: [{ path: ['degree'] }],
  });
  return query;
}

const sessionCount = async (api: MemberCall) =>
  (await api('GET', `${V}/verifier-presentation?publicVerifierId=desk&pageSize=1`)).body.data.totalItems as number;

describe('sessions asking beyond the registration', () => {
  test('are refused by default: 400 OVER_ASKING, one details entry per path, nothing created', async ({
    api,
    registered: _registered,
  }) => {
    const before = await sessionCount(api);
    const refused = await createSession(api, beyondQuery());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'OVER_ASKING', message: expect.stringMatching(/verifier "desk"/) });
    expect(refused.body.details).toEqual([
      { path: '/dcql/credentials/0/claims/1/path', message: expect.stringContaining('"birth_date"') },
      { path: '/dcql/credentials/1/meta/vct_values/0', message: expect.stringContaining('bachelor') },
    ]);
    expect(await sessionCount(api)).toBe(before);
    // Within the registration (a registered path covers the paths below it): created.
    const within = await createSession(api, pidQuery([['family_name'], ['address', 'locality']]));
    expect(within.status, within.raw).toBe(201);
    expect(within.body.data.overAsking).toBeUndefined();
    // An mdoc element of another namespace than registered.
    const mdoc = mdocPidQuery();
    mdoc.credentials[0]!.claims.push({ path: ['eu.europa.ec.eudi.pid.1', 'portrait'] });
    const mdocRefused = await createSession(api, mdoc);
    expect(mdocRefused.body.details).toEqual([
      { path: '/dcql/credentials/0/claims/1/path', message: expect.stringContaining('portrait') },
    ]);
  });

  test('under warn are created, and the session and its reads list what a wallet will flag', async ({
    api,
    registered: _registered,
  }) => {
    await setPolicy(api, 'warn');
    try {
      const created = await createSession(api, beyondQuery());
      expect(created.status, created.raw).toBe(201);
      const overAsking = [
        {
          path: '/dcql/credentials/0/claims/1/path',
          credentialQueryId: 'pid',
          kind: 'claim',
          message: expect.any(String),
        },
        {
          path: '/dcql/credentials/1/meta/vct_values/0',
          credentialQueryId: 'diploma',
          kind: 'credential_type',
          message: expect.any(String),
        },
      ];
      expect(created.body.data.overAsking).toEqual(overAsking);
      const read = await api('GET', `${V}/verifier-presentation?id=${created.body.data.id}`);
      expect(read.body.data.overAsking).toEqual(overAsking);
      const page = await api('GET', `${V}/verifier-presentation?publicVerifierId=desk&pageSize=1`);
      expect(page.body.data.data[0].overAsking).toEqual(overAsking);
    } finally {
      await setPolicy(api, 'refuse');
    }
  });

  test('from an intent are judged against the session’s verifier, the paths pointing into the template', async ({
    api,
    ecosystem: _ecosystem,
  }) => {
    const url = `${V}/intent-based-verification-presentation?verifierId=desk&ecosystemId=${ECOSYSTEM}`;
    const refused = await api('POST', url, { intent: 'age', responseMode: 'direct_post.jwt' });
    expect(refused.status, refused.raw).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'OVER_ASKING',
      details: [{ path: '/templateJson/dcql/query/credentials/0/claims/1/path' }],
    });
    // A verifier without a registration certificate is not judged.
    expect((await api('POST', `${V}/verifier`, { verifierId: 'unregistered' })).status).toBe(201);
    const unjudged = await api(
      'POST',
      `${V}/intent-based-verification-presentation?verifierId=unregistered&ecosystemId=${ECOSYSTEM}`,
      { intent: 'age', responseMode: 'direct_post.jwt' },
    );
    expect(unjudged.status, unjudged.raw).toBe(201);
  });
});

describe('templates naming a verifier', () => {
  const template = (query: unknown, verifierId?: string) => ({
    name: 'PID',
    templateJson: { dcql: { query } },
    signerOption: 'X509_P256',
    ...(verifierId ? { verifierId } : {}),
  });

  test('are judged when saved: refused, or under warn saved with the paths; unnamed ones are not judged', async ({
    api,
    registered: _registered,
  }) => {
    const refused = await api('POST', `${V}/verification-template`, template(beyondQuery(), 'desk'));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('OVER_ASKING');
    expect(refused.body.details.map((detail: { path: string }) => detail.path)).toEqual([
      '/templateJson/dcql/query/credentials/0/claims/1/path',
      '/templateJson/dcql/query/credentials/1/meta/vct_values/0',
    ]);
    const within = await api('POST', `${V}/verification-template`, template(pidQuery(), 'desk'));
    expect(within.status, within.raw).toBe(201);
    expect(within.body.data).toMatchObject({ verifierId: 'desk' });
    expect(within.body.data.overAsking).toBeUndefined();
    expect((await api('GET', `${V}/verification-template/${within.body.data.id}`)).body.data).toEqual(within.body.data);
    // Replacing it with a query beyond the registration is refused too, and keeps the template.
    const replaced = await api(
      'PUT',
      `${V}/verification-template/${within.body.data.id}`,
      template(beyondQuery(), 'desk'),
    );
    expect(replaced.body.code).toBe('OVER_ASKING');
    expect((await api('GET', `${V}/verification-template/${within.body.data.id}`)).body.data).toEqual(within.body.data);

    const unnamed = await api('POST', `${V}/verification-template`, template(beyondQuery()));
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.data.verifierId).toBeUndefined();

    await setPolicy(api, 'warn');
    try {
      const warned = await api('POST', `${V}/verification-template`, template(beyondQuery(), 'desk'));
      expect(warned.status, warned.raw).toBe(201);
      expect(warned.body.data.overAsking.map((entry: { path: string }) => entry.path)).toEqual([
        '/templateJson/dcql/query/credentials/0/claims/1/path',
        '/templateJson/dcql/query/credentials/1/meta/vct_values/0',
      ]);
      // Judged when saved: a read shows the verifier, not a judgement.
      const read = (await api('GET', `${V}/verification-template/${warned.body.data.id}`)).body.data;
      expect(read).toMatchObject({ verifierId: 'desk' });
      expect(read.overAsking).toBeUndefined();
    } finally {
      await setPolicy(api, 'refuse');
    }
  });

  test('name one of the organisation’s verifiers (404 otherwise); a deleted verifier is no longer named', async ({
    api,
    registered: _registered,
  }) => {
    const unknown = await api('POST', `${V}/verification-template`, template(pidQuery(), 'no-such-verifier'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('VERIFIER_NOT_FOUND');
    // Another organisation's verifier of the same name does not count.
    const elsewhere = await api(
      'POST',
      '/v1/orgs/org-templates-elsewhere/oid4vp/verification-template',
      template(pidQuery(), 'desk'),
      { org: 'org-templates-elsewhere' },
    );
    expect(elsewhere.body.code).toBe('VERIFIER_NOT_FOUND');
    expect((await api('POST', `${V}/verification-template`, template(pidQuery(), 'not a verifier id'))).status).toBe(
      400,
    );

    expect((await api('POST', `${V}/verifier`, { verifierId: 'temporary' })).status).toBe(201);
    const named = (await api('POST', `${V}/verification-template`, template(pidQuery(), 'temporary'))).body.data;
    expect(named.verifierId).toBe('temporary');
    expect((await api('DELETE', `${V}/verifier/temporary`)).status).toBe(200);
    const after = (await api('GET', `${V}/verification-template/${named.id}`)).body.data;
    expect(after.verifierId).toBeUndefined();
    expect(after.templateJson).toEqual(named.templateJson);
  });
});

describe('a verifier’s settings', () => {
  test('overAskingPolicy and strictHaip: defaults, set on create, kept by a PUT that does not name them, validated', async ({
    api,
    registered: _registered,
  }) => {
    const created = await api('POST', `${V}/verifier`, {
      verifierId: 'settings',
      overAskingPolicy: 'warn',
      strictHaip: true,
    });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data).toMatchObject({ overAskingPolicy: 'warn', strictHaip: true });
    const plain = await api('POST', `${V}/verifier`, { verifierId: 'plain-settings' });
    expect(plain.body.data).toMatchObject({ overAskingPolicy: 'refuse', strictHaip: false });

    const renamed = await api('PUT', `${V}/verifier/settings`, { clientMetadata: { client_name: 'Shop' } });
    expect(renamed.body.data).toMatchObject({
      overAskingPolicy: 'warn',
      strictHaip: true,
      clientMetadata: { client_name: 'Shop' },
    });
    const changed = await api('PUT', `${V}/verifier/settings`, { overAskingPolicy: 'refuse', strictHaip: false });
    expect(changed.body.data).toMatchObject({ overAskingPolicy: 'refuse', strictHaip: false });
    expect(changed.body.data.clientMetadata).toBeUndefined();

    for (const body of [{ overAskingPolicy: 'ignore' }, { strictHaip: 'yes please' }]) {
      const response = await api('PUT', `${V}/verifier/settings`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('GET', `${V}/verifier/settings`)).body.data).toMatchObject({
      overAskingPolicy: 'refuse',
      strictHaip: false,
    });
  });
});
