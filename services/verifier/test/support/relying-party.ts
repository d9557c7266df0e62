import { expect } from 'vitest';
import { issueAccessCertificate } from './access-certificates.js';
import { harnessTest } from './fixtures.js';
import type { HarnessOptions } from './harness.js';
import { ORG, type MemberCall } from './management.js';
import { issue, makeRoot, pemOf, privateKeyPem, type Issued } from './pki.js';
import {
  createTestRegistrar,
  PID_SD_JWT,
  signRegistrationCertificate,
  type TestRegistrar,
} from './registration-certificates.js';

// A relying party set up as EU wallets expect it (issue 25): an access certificate (WRPAC)
// carrying its EN 319 412-1 identifier, and DCQL queries within (or beyond) what its
// registration certificate registers (support/registration-certificates.ts: the PID with
// given_name, family_name and address; the mdoc PID with age_over_18).

/** The relying party's identifier, as the registration certificates of the support name it by default. */
export const RELYING_PARTY_ID = 'VATDE-123456789';

/** A registrar-approved CA of access certificates: root and issuing CA. */
export interface AccessCertificateCa {
  root: Issued;
  intermediate: Issued;
}

export async function createAccessCertificateCa(): Promise<AccessCertificateCa> {
  const root = await makeRoot('WRPAC Root CA');
  return { root, intermediate: await issue({ issuer: root, name: 'WRPAC Issuing CA', ca: true }) };
}

/** Imports, as `org`'s owner, a P-256 access certificate carrying `organizationIdentifier` (with its key). */
export async function importAccessCertificate(
  api: MemberCall,
  org: string,
  ca: AccessCertificateCa,
  organizationIdentifier: string = RELYING_PARTY_ID,
): Promise<void> {
  const leaf = await issueAccessCertificate({ issuer: ca.intermediate, organizationIdentifier });
  const response = await api(
    'PUT',
    `/v1/orgs/${org}/oid4vp/certificates/P256`,
    { certificateChainPem: pemOf(leaf, ca.intermediate, ca.root), privateKeyPem: await privateKeyPem(leaf) },
    { org, roles: ['owner'] },
  );
  expect(response.status, response.raw).toBe(200);
}

/** An SD-JWT VC PID query (`pid`) asking for `claims` (each a path), with the spec's `combine`. */
export function pidQuery(claims: string[][] = [['given_name']], vct = PID_SD_JWT.type, id = 'pid') {
  return {
    combine: 'all',
    credentials: [{ id, format: 'dc+sd-jwt', meta: { vct_values: [vct] }, claims: claims.map((path) => ({ path })) }],
  };
}

/** The mdoc PID query (`mdoc_pid`) asking for age_over_18, as registered. */
export function mdocPidQuery() {
  return {
    combine: 'all',
    credentials: [
      {
        id: 'mdoc_pid',
        format: 'mso_mdoc',
        meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' },
        claims: [{ path: ['eu.europa.ec.eudi.pid.1', 'age_over_18'] }],
      },
    ],
  };
}

/** ORG's verifier `desk` registered: its registrar (trusted platform-wide), the WRPAC CA, and the certificate stored. */
export interface RegisteredDesk {
  registrar: TestRegistrar;
  ca: AccessCertificateCa;
  /** The registration certificate stored on `desk` (V1.2.1, the support's default registration). */
  registrationCertificate: string;
}

/** Stores `registrationCertificate` on ORG's verifier `verifierId` as an owner (200 or the test fails). */
export async function registerVerifier(
  api: MemberCall,
  registrationCertificate: string,
  options: { org?: string; verifierId?: string } = {},
): Promise<void> {
  const org = options.org ?? ORG;
  const response = await api(
    'PUT',
    `/v1/orgs/${org}/oid4vp/verifier/${options.verifierId ?? 'desk'}/registration-certificate`,
    { registrationCertificate },
    { org, roles: ['owner'] },
  );
  expect(response.status, response.raw).toBe(200);
}

/**
 * `harnessTest` whose platform trusts a test registrar (REGISTRAR_TRUST_ANCHORS_FILE), plus
 * `registered`: ORG holding a WRPAC for RELYING_PARTY_ID and its verifier `desk` registered.
 */
export function registeredDeskTest(setup: HarnessOptions = {}) {
  const registrar = createTestRegistrar('Platform Registrar');
  return harnessTest(async () => ({
    ...setup,
    registrarAnchors: [(await registrar).root.certificate.toString('pem')],
  })).extend('registered', { scope: 'file' }, async ({ api, desk: _desk }): Promise<RegisteredDesk> => {
    const ca = await createAccessCertificateCa();
    await importAccessCertificate(api, ORG, ca);
    const registrationCertificate = await signRegistrationCertificate({ registrar: await registrar });
    await registerVerifier(api, registrationCertificate);
    return { registrar: await registrar, ca, registrationCertificate };
  });
}
