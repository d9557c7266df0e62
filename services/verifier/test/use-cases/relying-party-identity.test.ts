import { describe, expect } from 'vitest';
import { decodeJwt } from 'jose';
import { captureLogger, metricSample, silentLogger } from '@tessera/service-kit/testing';
import { KeyDecryptionError } from '../../src/crypto/key-encryption.js';
import { pendingSigningKeyContext, signingKeyContext } from '../../src/crypto/sealing-contexts.js';
import { SessionEventHub } from '../../src/state/session-event-hub.js';
import { createPresentationSession } from '../../src/use-cases/create-presentation-session.js';
import { createTrustAnchor } from '../../src/use-cases/create-trust-anchor.js';
import { createVerificationTemplate } from '../../src/use-cases/create-verification-template.js';
import { createVerifier } from '../../src/use-cases/create-verifier.js';
import { fetchRequestObject } from '../../src/use-cases/fetch-request-object.js';
import { followSessionEvents } from '../../src/use-cases/follow-session-events.js';
import { getSigningCertificate } from '../../src/use-cases/get-signing-certificate.js';
import { importCertificate } from '../../src/use-cases/import-certificate.js';
import { listSigningCertificates } from '../../src/use-cases/list-signing-certificates.js';
import { putRegistrationCertificate } from '../../src/use-cases/put-registration-certificate.js';
import { receiveWalletResponse } from '../../src/use-cases/receive-wallet-response.js';
import { requestAccessCertificate } from '../../src/use-cases/request-access-certificate.js';
import { updateVerifier } from '../../src/use-cases/update-verifier.js';
import { persistSessionExpiry } from '../../src/use-cases/steps/persist-session-expiry.js';
import { warnExpiringRegistrationCertificates } from '../../src/use-cases/warn-expiring-registration-certificates.js';
import type { SessionStateEventOut } from '../../src/domain/session-state-events.js';
import { certifyRequest, issueAccessCertificate } from '../support/access-certificates.js';
import { issue, makeRoot, pemOf, privateKeyPem } from '../support/pki.js';
import {
  createTestRegistrar,
  DAY_SECONDS,
  registrationCertificatePayload,
  signRegistrationCertificate,
} from '../support/registration-certificates.js';
import { pidQuery, RELYING_PARTY_ID } from '../support/relying-party.js';
import { storedPendingSigningKeys, storedSession, storedSigningKeys } from '../support/stored-rows.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { presentPid } from '../support/holder.js';
import { ORG } from '../support/management.js';
import { createPidSession, factsOf, useCaseTest as test, valueOf, type UseCaseDeps } from '../support/use-cases.js';

// Relying-party identity through its use cases (issue 25): the CSR's key sealed under its
// own context until its chain comes, then re-sealed as the signing key; registration
// certificates checked against the platform's registrar anchors and counted when refused;
// the expiry warning once a day ahead; sessions judged at creation, what was judged stored
// and re-sent exactly, and shown on the session's events.

const subject = {
  commonName: 'Example Shop',
  organizationName: 'Example Shop GmbH',
  organizationIdentifier: RELYING_PARTY_ID,
  countryName: 'DE',
};

/** An organisation with its own verifier `desk`, an access certificate for RELYING_PARTY_ID, and the registration deps. */
async function registeredOrganisation(deps: UseCaseDeps, orgId: string, options: { notAfterSeconds?: number } = {}) {
  await createVerifier(deps, { orgId, verifierId: 'desk' });
  const root = await makeRoot();
  const intermediate = await issue({ issuer: root, name: 'WRPAC CA', ca: true });
  const leaf = await issueAccessCertificate({ issuer: intermediate, organizationIdentifier: RELYING_PARTY_ID });
  await importCertificate(deps, {
    orgId,
    keyType: 'P256',
    certificateChainPem: pemOf(leaf, intermediate, root),
    privateKeyPem: await privateKeyPem(leaf),
  });
  const registrar = await createTestRegistrar();
  const registrationDeps = {
    ...deps,
    clockSkewSeconds: 60,
    registrarAnchors: [registrar.root.certificate.toString('pem')],
  };
  const now = Math.floor(Date.now() / 1000);
  const jwt = await signRegistrationCertificate({
    registrar,
    payload: registrationCertificatePayload('1.2.1', {
      iat: now - 60,
      exp: now + (options.notAfterSeconds ?? 180 * DAY_SECONDS),
    }),
  });
  await putRegistrationCertificate(registrationDeps, { orgId, verifierId: 'desk', registrationCertificate: jwt });
  return { registrar, registrationDeps, jwt };
}

describe('access certificates by CSR', () => {
  test('the pending key is sealed under its own context; the chain moves it, re-sealed, into the signing key', async ({
    world,
    testDb,
  }) => {
    const { deps } = world;
    const orgId = 'org-csr-use-case';
    const signerBefore = await getSigningCertificate(deps, { orgId, keyType: 'P256' });
    const pending = await requestAccessCertificate(deps, { orgId, keyType: 'P256', body: { subject } });
    const [stored] = await storedPendingSigningKeys(testDb.database, orgId);
    // Opens only under its own context: the re-sealing of a key rotation finds it by (org, key type, key id).
    const jwk = JSON.parse(
      deps.keyEncryptionKey.open(stored!.encryptedPrivateKey, pendingSigningKeyContext(orgId, 'P256', pending.keyId)),
    ) as { d?: string; x?: string };
    expect(jwk.d).toEqual(expect.any(String));
    expect(jwk.x).toBe((pending.publicJwk as { x: string }).x);
    expect(() => deps.keyEncryptionKey.open(stored!.encryptedPrivateKey, signingKeyContext(orgId, 'P256'))).toThrow(
      KeyDecryptionError,
    );
    expect((await listSigningCertificates(deps, { orgId }))[0]).toMatchObject({
      signer: signerBefore,
      pending: { keyId: pending.keyId },
    });

    const root = await makeRoot();
    const leafPem = await certifyRequest({ issuer: root, csrPem: pending.csrPem });
    const imported = await importCertificate(deps, {
      orgId,
      keyType: 'P256',
      certificateChainPem: `${leafPem}${pemOf(root)}`,
    });
    expect(imported).toMatchObject({ source: 'csr', chain: [expect.any(String)] });
    expect(await storedPendingSigningKeys(testDb.database, orgId)).toEqual([]);
    const [signingKey] = await storedSigningKeys(testDb.database, orgId);
    const opened = JSON.parse(
      deps.keyEncryptionKey.open(signingKey!.encryptedPrivateKey, signingKeyContext(orgId, 'P256')),
    );
    expect(opened.d).toBe(jwk.d);
    expect(await getSigningCertificate(deps, { orgId, keyType: 'P256' })).toEqual(imported);
  });
});

describe('registration certificates', () => {
  test('a refusal is counted by its reason', async ({ world }) => {
    const { deps, registry } = world;
    const { registrationDeps } = await registeredOrganisation(deps, 'org-refusal-count');
    const count = async (reason: string) =>
      metricSample(await registry.metrics(), 'tessera_verifier_registration_certificates_refused_total', { reason }) ??
      0;
    const before = await count('UNTRUSTED');
    const stranger = await signRegistrationCertificate({ registrar: await createTestRegistrar('Stranger') });
    await expect(
      putRegistrationCertificate(registrationDeps, {
        orgId: 'org-refusal-count',
        verifierId: 'desk',
        registrationCertificate: stranger,
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'REGISTRATION_CERTIFICATE_INVALID' });
    expect(await count('UNTRUSTED')).toBe(before + 1);
  });

  test('a certificate ending within a day is logged once, by one run, and counted; an expired one too', async ({
    world,
  }) => {
    const { deps, registry } = world;
    const orgId = 'org-expiry-warning';
    const { registrar, registrationDeps } = await registeredOrganisation(deps, orgId, {
      notAfterSeconds: 2 * DAY_SECONDS,
    });
    const capture = captureLogger('verifier', 'warn');
    const jobDeps = { ...deps, logger: capture.logger };
    const warningsFor = () =>
      capture
        .lines()
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.orgId === orgId);
    const gauge = async (state: string) =>
      metricSample(await registry.metrics(), 'tessera_verifier_registration_certificates', { state });

    await warnExpiringRegistrationCertificates(jobDeps);
    expect(warningsFor()).toEqual([]);
    deps.clock.offsetMs = (DAY_SECONDS + 3600) * 1000;
    try {
      await warnExpiringRegistrationCertificates(jobDeps);
      await warnExpiringRegistrationCertificates(jobDeps);
      expect(warningsFor()).toEqual([
        expect.objectContaining({
          verifierId: 'desk',
          relyingParty: RELYING_PARTY_ID,
          msg: expect.stringMatching(/expires within a day/),
        }),
      ]);
      expect(await gauge('expiring')).toBeGreaterThanOrEqual(1);
      // A renewal starts the warning over; an expired certificate is told once more, as expired.
      const renewal = await signRegistrationCertificate({
        registrar,
        payload: registrationCertificatePayload('1.2.1', {
          iat: Math.floor(Date.now() / 1000) + DAY_SECONDS,
          exp: Math.floor(Date.now() / 1000) + DAY_SECONDS + 3 * 3600,
        }),
      });
      await putRegistrationCertificate(registrationDeps, {
        orgId,
        verifierId: 'desk',
        registrationCertificate: renewal,
      });
      deps.clock.offsetMs = (DAY_SECONDS + 4 * 3600) * 1000;
      await warnExpiringRegistrationCertificates(jobDeps);
      expect(warningsFor().map((line) => line.msg)).toEqual([
        expect.stringMatching(/expires within a day/),
        expect.stringMatching(/^registration certificate expired/),
      ]);
      expect(await gauge('expired')).toBeGreaterThanOrEqual(1);
    } finally {
      deps.clock.offsetMs = 0;
    }
  });
});

describe('registrar anchors', () => {
  test('are not issuer anchors: a credential under one is ISSUER_NOT_TRUSTED', async ({ world, testDb }) => {
    const { deps } = world;
    const registrarCa = await createIssuer('Registrar-only CA');
    await createTrustAnchor(deps, {
      orgId: ORG,
      body: { certificatePem: registrarCa.ca.pem, purpose: 'registrar' },
    });
    const session = await createPidSession(world);
    const facts = factsOf(
      valueOf(await fetchRequestObject(deps, { authorizationRequestId: session.authorizationRequestId })),
    );
    const holder = await newHolder();
    const presentation = await presentPid(await issuePid(registrarCa, holder), holder, facts);
    const answered = await receiveWalletResponse(deps, {
      authorizationRequestId: session.authorizationRequestId,
      fields: { vp_token: JSON.stringify({ pid: [presentation] }), state: facts.state },
    });
    expect(answered.ok).toBe(false);
    expect(await storedSession(testDb.database, session.id)).toMatchObject({
      state: 'Error',
      errorCode: 'ISSUER_NOT_TRUSTED',
    });
  });
});

describe('sessions judged at creation', () => {
  test('under warn: verifier_info and overAsking stored on the session, re-sent exactly, on its events, counted', async ({
    world,
    testDb,
  }) => {
    const { deps, registry } = world;
    const orgId = 'org-judged-session';
    const { jwt } = await registeredOrganisation(deps, orgId);
    await createVerifier(deps, { orgId, verifierId: 'warned', overAskingPolicy: 'warn' });
    const count = async (subject: string) =>
      metricSample(await registry.metrics(), 'tessera_verifier_over_asking_total', { policy: 'warn', subject }) ?? 0;
    const [sessionsBefore, templatesBefore] = [await count('session'), await count('template')];

    // `desk` under refuse (the default): a query beyond the registration is refused and counted.
    await expect(
      createPresentationSession(deps, {
        orgId,
        verifierId: 'desk',
        body: { dcql: pidQuery([['birth_date']]), responseMode: 'direct_post' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'OVER_ASKING' });

    // `warned` has no registration certificate: nothing judged, nothing sent.
    const unregistered = await createPresentationSession(deps, {
      orgId,
      verifierId: 'warned',
      body: { dcql: pidQuery([['birth_date']]), responseMode: 'direct_post' },
    });
    expect(unregistered.session).toMatchObject({ verifierInfo: null, overAsking: null });

    // `desk` under warn: a query half within, half beyond.
    await updateVerifier(deps, { orgId, verifierId: 'desk', overAskingPolicy: 'warn' });
    const query = pidQuery([['given_name']]);
    query.credentials.push({
      id: 'beyond',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['urn:eudi:pid:1'] },
      claims: [{ path: ['birth_date'] }],
    });
    const created = await createPresentationSession(deps, {
      orgId,
      verifierId: 'desk',
      body: { dcql: query, responseMode: 'direct_post' },
    });
    const stored = await storedSession(testDb.database, created.session.id);
    expect(stored).toMatchObject({
      verifierInfo: [{ format: 'registration_cert', data: jwt, credential_ids: ['pid'] }],
      overAsking: [
        {
          path: '/dcql/credentials/1/claims/0/path',
          credentialQueryId: 'beyond',
          kind: 'claim',
          message: expect.any(String),
        },
      ],
    });
    expect(await count('session')).toBe(sessionsBefore + 1);
    const plain = decodeJwt(stored!.requestObject!);
    const resigned = decodeJwt(
      valueOf(
        await fetchRequestObject(deps, {
          authorizationRequestId: created.session.authorizationRequestId,
          walletNonce: 'wallet-nonce',
        }),
      ),
    );
    expect(resigned.verifier_info).toEqual(plain.verifier_info);
    expect(resigned.verifier_info).toEqual(stored!.verifierInfo);

    // Its state events carry the paths.
    const hub = new SessionEventHub({
      db: deps.db,
      clock: deps.clock,
      persistExpiry: (session, now) => persistSessionExpiry(deps, { ...session, now }),
      logger: silentLogger(),
      maxStreamsPerOrg: 10,
      resyncMs: 60_000,
    });
    const followed = await followSessionEvents({ ...deps, hub }, { orgId, id: created.session.id });
    expect(followed.kind).toBe('follow');
    if (followed.kind === 'follow') {
      const sent: SessionStateEventOut[] = [];
      followed.follower.start((event) => sent.push(event));
      followed.follower.stop();
      expect(sent.map((event) => event.data.overAsking)).toEqual([stored!.overAsking]);
    }

    // A template naming the verifier under warn is saved, with the paths, and counted.
    const template = await createVerificationTemplate(deps, {
      orgId,
      body: {
        name: 'Beyond',
        templateJson: { dcql: { query: pidQuery([['birth_date']]) } } as never,
        signerOption: 'X509_P256',
        verifierId: 'desk',
      },
    });
    expect(template).toMatchObject({
      verifierId: 'desk',
      overAsking: [{ path: '/templateJson/dcql/query/credentials/0/claims/0/path' }],
    });
    expect(await count('template')).toBe(templatesBefore + 1);
  });
});
