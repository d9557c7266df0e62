import { mintDevToken } from '@tessera/service-kit';
import { DEMO_VCT } from './demo-credential.js';
import { callJson } from './http.js';
import type { ServiceUrls } from './services.js';

/** The query both demos ask with: the age credential's `age_over_18` and `given_name`. */
export const DEMO_DCQL = {
  query: {
    combine: 'all',
    credentials: [
      {
        id: 'age',
        format: 'dc+sd-jwt',
        meta: { vct_values: [DEMO_VCT] },
        claims: [{ path: ['age_over_18'] }, { path: ['given_name'] }],
      },
    ],
  },
} as const;

/**
 * The same question of an ISO mdoc: a mobile driving licence's `age_over_18` and
 * `given_name`. A DeviceRequest can express it, so it can also be asked with
 * `org-iso-mdoc` (ISO/IEC 18013-7 Annex C), the protocol Apple Wallet answers.
 */
export const DEMO_MDL_DCQL = {
  query: {
    combine: 'all',
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
        claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'] }, { path: ['org.iso.18013.5.1', 'given_name'] }],
      },
    ],
  },
} as const;

export const DEMO_INTENT = 'age-verification';
export const DEMO_VERIFIER_ID = 'demo-shop';

/** A relying party set up for the demos, and the owner's token that manages it. */
export interface DemoRelyingParty {
  orgId: string;
  ownerEmail: string;
  /** Bearer token of the organisation's owner (roles owner, admin, verifier): sets the relying party up. */
  ownerToken: string;
  /**
   * Bearer token with the `verifier` role alone: what a relying party's backend holds
   * day to day. It creates sessions and reads their results, and cannot change the
   * verifier, its templates, trust anchors, keys or webhook.
   */
  verifierToken: string;
  ecosystemId: string;
  intentId: string;
  templateId: string;
  verifierId: string;
}

/**
 * Sets up a relying party from nothing, as a newcomer would with the APIs: the
 * organisation leads an ecosystem (invited by the platform admin) whose intent
 * `age-verification` maps to its verification template; it has the verifier
 * `demo-shop` and trusts the demo issuer's CA. Tokens are minted with the
 * development signing key of `npm start` (in `dataDir`).
 */
export async function setUpRelyingParty(options: {
  urls: ServiceUrls;
  dataDir: string;
  run: string;
  issuerCaPem: string;
  issuerName: string;
  clientName?: string;
}): Promise<DemoRelyingParty> {
  const { urls, dataDir, run } = options;
  const orgId = `demo-org-${run}`;
  const ownerEmail = `owner-${run}@demo.tessera.example`;
  const org = (path: string) => `${urls.verifier}/v1/orgs/${orgId}/oid4vp/${path}`;
  const admin = await mintDevToken(dataDir, {
    sub: 'demo-admin',
    email: 'admin@demo.tessera.example',
    platformAdmin: true,
  });
  const ownerToken = await mintDevToken(dataDir, {
    sub: `demo-owner-${run}`,
    email: ownerEmail,
    orgRoles: { [orgId]: ['owner', 'admin', 'verifier'] },
  });

  const verifierToken = await mintDevToken(dataDir, {
    sub: `demo-backend-${run}`,
    email: `backend-${run}@demo.tessera.example`,
    orgRoles: { [orgId]: ['verifier'] },
  });

  await callJson('PUT', `${urls.ecosystem}/v1/organisations/${orgId}`, {
    token: ownerToken,
    body: { name: `Demo City Council ${run}` },
  });
  await callJson('POST', `${urls.ecosystem}/v1/invitations`, { token: admin, body: { email: ownerEmail } });
  const ecosystem = await callJson('POST', `${urls.ecosystem}/v1/ecosystem/${orgId}/create`, {
    token: ownerToken,
    body: { name: `Demo Ecosystem ${run}`, description: 'Age checks for local shops' },
  });
  const ecosystemId = ecosystem.data.id as string;
  const intent = await callJson('POST', `${urls.ecosystem}/v1/intent/ecosystem/${ecosystemId}`, {
    token: ownerToken,
    body: { name: DEMO_INTENT, description: 'Prove you are over 18' },
  });

  await callJson('POST', org('verifier'), {
    token: ownerToken,
    body: { verifierId: DEMO_VERIFIER_ID, clientMetadata: { client_name: options.clientName ?? 'Demo Shop' } },
  });
  const template = await callJson('POST', org('verification-template'), {
    token: ownerToken,
    body: { name: 'Over 18', signerOption: 'X509_P256', templateJson: { dcql: DEMO_DCQL } },
  });
  await callJson('POST', `${urls.ecosystem}/v1/intent/${intent.data.id}/template`, {
    token: ownerToken,
    body: { templateId: template.data.id, role: 'verifier', description: 'What a shop asks for' },
  });
  await callJson('POST', org('trust-anchors'), {
    token: ownerToken,
    body: { certificatePem: options.issuerCaPem, label: options.issuerName },
  });
  return {
    orgId,
    ownerEmail,
    ownerToken,
    verifierToken,
    ecosystemId,
    intentId: intent.data.id as string,
    templateId: template.data.id as string,
    verifierId: DEMO_VERIFIER_ID,
  };
}
