import { describe, expect } from 'vitest';
import type { JWK } from 'jose';
import type { CreatedPresentation, DcApiProtocol } from '@tessera/contracts';
import { createServiceMetrics, startMetricsServer } from '@tessera/service-kit';
import { metricSample, scrapeMetrics } from '@tessera/service-kit/testing';
import type { AnnexCDocument } from '../support/annex-c-holder.js';
import { answerDcApi, requestOf, type DcApiFormat } from '../support/dc-api-wallet.js';
import { mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest } from '../support/fixtures.js';
import { createIssuer, issueMdl, MDL_DOCTYPE, MDL_NAMESPACE, newHolder } from '../support/issuers.js';
import { ORG, oid4vpPath } from '../support/management.js';
import { storedResults, storedSession } from '../support/stored-rows.js';
import { issueMdoc } from '../verification/support/mdoc.js';
import {
  createRegistryIssuer,
  entity,
  MDL_TYPE,
  startStubEcosystem,
  type StubEcosystem,
} from '../trust-registry/support.js';

// Answers on every protocol (issue 24, item 2), end to end over real HTTP: a page's
// backend forwards what the browser returned with `protocol`, and every answer goes
// through the one verification engine and everything after it.
const ORIGIN = 'https://rp.tessera.test';
const DAY = 86_400_000;
const OPENID4VP = ['openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned'] as const;
const metrics = createServiceMetrics({ service: 'verifier' });

const test = e2eTest({ metrics })
  .extend('metricsUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startMetricsServer({ registry: metrics.registry, host: '127.0.0.1', port: 0 });
    onCleanup(() => server.close());
    return server.url;
  })
  .extend('ecosystem', { scope: 'file' }, async ({ harness }, { onCleanup }): Promise<StubEcosystem> => {
    const bus = await harness.connectPeer('ecosystem-stub');
    const stub = await startStubEcosystem(bus);
    onCleanup(async () => {
      stub.stop();
      await bus.close();
    });
    return stub;
  });

const queryOf = (format: DcApiFormat) => (format === 'sd-jwt' ? sdJwtQuery() : mdocQuery());

/** A session offering `protocols`, answered on `protocol` by a wallet holding the setting issuer's credential. */
async function answerOn(
  e: E2e,
  options: { format: DcApiFormat; responseMode: string; protocols: readonly DcApiProtocol[]; protocol: DcApiProtocol },
) {
  const session = await e.createSession({
    dcql: queryOf(options.format),
    responseMode: options.responseMode,
    expectedOrigins: [ORIGIN],
    dcApiProtocols: options.protocols,
  });
  const authorizationResponse = await answerDcApi(e, requestOf(session, options.protocol), {
    origin: ORIGIN,
    format: options.format,
  });
  const answered = await e.verifyDcApi({
    verificationSessionId: session.id,
    authorizationResponse,
    origin: ORIGIN,
    protocol: options.protocol,
  });
  return { session, answered };
}

/** An mDL of `issuer` (`TestIssuer` shape) in a wallet: what the Annex C holder presents. */
async function heldMdl(
  issuer: { leafPrivateJwk: JWK; leaf: { der: Uint8Array } },
  options: { validFrom: Date; validUntil: Date; namespaces?: Record<string, unknown> },
) {
  const holder = await newHolder();
  const issuerSigned = await issueMdoc({
    namespaces: { [MDL_NAMESPACE]: options.namespaces ?? { family_name: 'Mustermann' } },
    signerPrivateJwk: issuer.leafPrivateJwk,
    certificates: [issuer.leaf.der],
    devicePublicJwk: holder.publicJwk,
    validFrom: options.validFrom,
    validUntil: options.validUntil,
  });
  return { issuerSigned, devicePrivateJwk: holder.privateJwk };
}

/** The session's org-iso-mdoc request answered by the holder with `documents`, forwarded without a protocol (its first). */
async function answerAnnexC(e: E2e, session: CreatedPresentation, documents: Record<string, AnnexCDocument>) {
  return e.verifyDcApi({
    verificationSessionId: session.id,
    authorizationResponse: await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
      documents,
    }),
    origin: ORIGIN,
  });
}

/** What a verified answer shows of a presentation, without the values that differ per issuance (times, validity). */
const shapeOf = (presentation: Record<string, unknown>) => ({
  keys: Object.keys(presentation).sort(),
  claims: Object.fromEntries(
    Object.entries(presentation.claims as Record<string, unknown>).filter(
      ([name]) => !['iat', 'exp', 'nbf'].includes(name),
    ),
  ),
  format: presentation.format,
  holderBinding: presentation.holderBinding,
});

describe.each(['dc_api', 'dc_api.jwt'])('%s: one session per protocol, answered and verified', (responseMode) => {
  test.for([
    ...OPENID4VP.map((protocol) => ['sd-jwt', protocol] as const),
    ...OPENID4VP.map((protocol) => ['mdoc', protocol] as const),
    ['mdoc', 'org-iso-mdoc'] as const,
  ])(
    '%s over %s: 200 ResponseVerified, the same result shape as the signed protocol',
    async ([format, protocol], { e2e: e }) => {
      const protocols = format === 'mdoc' ? [...OPENID4VP, 'org-iso-mdoc' as const] : [...OPENID4VP];
      const { session, answered } = await answerOn(e, { format, responseMode, protocols, protocol });
      expect(answered.status, answered.raw).toBe(200);
      expect(answered.body.data).toMatchObject({ id: session.id, state: 'ResponseVerified' });
      const baseline = await answerOn(e, { format, responseMode, protocols, protocol: 'openid4vp-v1-signed' });
      expect(shapeOf(answered.body.data.presentations[0])).toEqual(
        shapeOf(baseline.answered.body.data.presentations[0]),
      );
      expect((await e.readResult(session.id)).body.data.presentations).toEqual(answered.body.data.presentations);
    },
  );
});

describe('the protocol an answer is read with', () => {
  test('absent: the session’s first protocol', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc', 'openid4vp-v1-signed'],
    });
    const authorizationResponse = await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
    });
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse, origin: ORIGIN });
    expect(answered.status, answered.raw).toBe(200);
    expect(answered.body.data.state).toBe('ResponseVerified');
  });

  test('a multi-signed answer may name the origin or one of the request’s signers as its audience', async ({
    e2e: e,
  }) => {
    for (const audienceOf of [
      () => `origin:${ORIGIN}`,
      (session: CreatedPresentation) => session.clientId,
      () => undefined,
    ]) {
      const session = await e.createSession({
        dcql: sdJwtQuery(),
        responseMode: 'dc_api',
        expectedOrigins: [ORIGIN],
        dcApiProtocols: ['openid4vp-v1-multisigned'],
      });
      const aud = audienceOf(session);
      const authorizationResponse = await answerDcApi(e, requestOf(session, 'openid4vp-v1-multisigned'), {
        origin: ORIGIN,
        format: 'sd-jwt',
        ...(aud ? { aud } : {}),
      });
      const answered = await e.verifyDcApi({
        verificationSessionId: session.id,
        authorizationResponse,
        origin: ORIGIN,
        protocol: 'openid4vp-v1-multisigned',
      });
      expect(answered.body.data.state, answered.raw).toBe('ResponseVerified');
    }
  });
});

describe('an org-iso-mdoc answer goes through everything after the engine', () => {
  test('minimised to the request, intent_to_retain kept, the read audited, the key dropped, the event, the webhook and the metric', async ({
    e2e: e,
    api,
    desk,
    harness,
    sessionEvents,
    metricsUrl,
  }) => {
    // Creating a webhook is for owners and admins (issue 28, item 4).
    const webhook = await api(
      'PUT',
      `${oid4vpPath()}/verifier/${desk}/webhook`,
      { url: 'https://receiver.tessera.test/hooks', events: ['presentation.verified'] },
      { roles: ['admin'] },
    );
    expect(webhook.status, webhook.raw).toBe(201);
    const query = mdocQuery();
    query.credentials[0]!.claims[0]!.intent_to_retain = true;
    const session = await e.createSession({
      dcql: query,
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc'],
    });
    const mdl = {
      ...(await heldMdl(e.issuer, {
        validFrom: new Date(Date.now() - DAY),
        validUntil: new Date(Date.now() + 365 * DAY),
        namespaces: { family_name: 'Mustermann', given_name: 'Erika', birth_date: '1964-08-12' },
      })),
      // The wallet discloses more than the DocRequest asked for.
      reveal: { [MDL_NAMESPACE]: ['family_name', 'given_name'] },
    };
    const authorizationResponse = await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
      documents: { [MDL_DOCTYPE]: mdl },
    });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse,
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(answered.status, answered.raw).toBe(200);
    expect(answered.body.data.presentations).toEqual([
      expect.objectContaining({
        credentialQueryId: 'mdl',
        format: 'mso_mdoc',
        doctype: MDL_DOCTYPE,
        claims: { [MDL_NAMESPACE]: { family_name: 'Mustermann' } },
        droppedClaims: [[MDL_NAMESPACE, 'given_name']],
        holderBinding: true,
      }),
    ]);
    // The claim with intent_to_retain is the retained view; the answer was the first read, started the grace, and is audited.
    const [result] = await storedResults(harness.testDb.database, session.id);
    expect(result!.sealedRetainedPresentations).toMatch(/^v1\./);
    expect(result!.readExpiresAt).toBeInstanceOf(Date);
    const reads = await api('GET', `${oid4vpPath()}/verifier-presentation-reads?id=${session.id}`, undefined, {
      roles: ['owner'],
    });
    expect(reads.body.data.data).toEqual([expect.objectContaining({ route: 'verify-authorization-response' })]);
    // The HPKE key is gone once the session settled.
    const row = await storedSession(harness.testDb.database, session.id);
    expect(row!.encryptedAnnexCKey).toBeNull();
    expect(row!.annexCEncryptionInfo).toBe(
      (requestOf(session, 'org-iso-mdoc').data as { encryptionInfo: string }).encryptionInfo,
    );
    await sessionEvents.waitFor(session.id, 'ResponseVerified');
    const deliveries = await api('GET', `${oid4vpPath()}/verifier/${desk}/webhook/deliveries`);
    expect(
      deliveries.body.data.data.map((delivery: { event: { sessionId: string } }) => delivery.event.sessionId),
    ).toContain(session.id);
    const scrape = await scrapeMetrics(metricsUrl);
    expect(
      metricSample(scrape, 'tessera_verifier_dc_api_answers_total', {
        service: 'verifier',
        protocol: 'org-iso-mdoc',
        result: 'verified',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricSample(scrape, 'tessera_verifier_presentations_total', {
        service: 'verifier',
        format: 'mso_mdoc',
        outcome: 'verified',
      }),
    ).toBeGreaterThanOrEqual(1);
    // A second answer finds the session closed.
    const again = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse, origin: ORIGIN });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SESSION_CLOSED');
  });

  test('issuer trust: an issuer the organisation does not trust is ISSUER_NOT_TRUSTED', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc'],
    });
    const stranger = await createIssuer('Untrusted mDL Issuer');
    const mdl = await heldMdl(stranger, {
      validFrom: new Date(Date.now() - DAY),
      validUntil: new Date(Date.now() + DAY),
    });
    const answered = await answerAnnexC(e, session, { [MDL_DOCTYPE]: mdl });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'ISSUER_NOT_TRUSTED' } });
  });

  test('validity: an expired mDL is CREDENTIAL_EXPIRED', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api.jwt',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc'],
    });
    const mdl = await heldMdl(e.issuer, {
      validFrom: new Date(Date.now() - 30 * DAY),
      validUntil: new Date(Date.now() - DAY),
    });
    const answered = await answerAnnexC(e, session, { [MDL_DOCTYPE]: mdl });
    expect(answered.body.data).toMatchObject({ state: 'Error', error: { code: 'CREDENTIAL_EXPIRED' } });
  });

  test('an ecosystem trust list: its listed issuer is trusted and named, over org-iso-mdoc too', async ({
    e2e: e,
    api,
    desk,
    ecosystem,
  }) => {
    // Not an anchor of the organisation: only the list makes it trusted.
    const issuer = await createRegistryIssuer('Listed mDL Issuer');
    const listed = entity({ name: 'Listed mDL Issuer', certificates: [issuer.ca], types: [MDL_TYPE] });
    const documents = async () => {
      const holder = await newHolder();
      return { [MDL_DOCTYPE]: { issuerSigned: await issueMdl(issuer, holder), devicePrivateJwk: holder.privateJwk } };
    };
    const list = ecosystem.add({ entities: [listed], members: new Set([ORG]) });
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      ecosystemId: list.ecosystemId,
      dcApiProtocols: ['org-iso-mdoc'],
    });
    const answered = await e.verifyDcApi({
      verificationSessionId: session.id,
      authorizationResponse: await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
        origin: ORIGIN,
        format: 'mdoc',
        documents: await documents(),
      }),
      origin: ORIGIN,
      protocol: 'org-iso-mdoc',
    });
    expect(answered.body.data, answered.raw).toMatchObject({
      state: 'ResponseVerified',
      presentations: [{ trustedEntityId: listed.id, trustedEntityName: 'Listed mDL Issuer', trustListSequence: 1 }],
    });

    // Suspended on the list: the same issuer grants nothing to a session created before, whatever the anchors say.
    const next = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      ecosystemId: list.ecosystemId,
      dcApiProtocols: ['org-iso-mdoc'],
    });
    ecosystem.setStatus(list, listed.id, 'suspended');
    // The change event reached the replica once a new session finds no active issuer.
    await expect
      .poll(
        async () =>
          (
            await api('POST', `${oid4vpPath()}/presentation?verifierId=${desk}`, {
              dcql: mdocQuery(),
              responseMode: 'dc_api',
              expectedOrigins: [ORIGIN],
              ecosystemId: list.ecosystemId,
              dcApiProtocols: ['org-iso-mdoc'],
            })
          ).body.code,
      )
      .toBe('NO_TRUSTED_ISSUER');
    const refused = await e.verifyDcApi({
      verificationSessionId: next.id,
      authorizationResponse: await answerDcApi(e, requestOf(next, 'org-iso-mdoc'), {
        origin: ORIGIN,
        format: 'mdoc',
        documents: await documents(),
      }),
      origin: ORIGIN,
    });
    expect(refused.body.data).toMatchObject({ state: 'Error', error: { code: 'ISSUER_NOT_TRUSTED' } });
  });
});
