import type { JWK } from 'jose';
import { verifyPresentation, type VerifyPresentationOptions } from '../../../src/verification/index.js';
import { CLIENT_ID, NONCE, NOW, NOW_SECONDS, RESPONSE_URI, VCT, noStatusLists, type Pki } from './fixtures.js';
import {
  type generateEs256,
  issueSdJwtVc,
  presentSdJwtVc,
  type IssueSdJwtVcOptions,
  type PresentSdJwtVcOptions,
} from './sd-jwt.js';

export type Holder = Awaited<ReturnType<typeof generateEs256>>;

export const PID_QUERY = {
  combine: 'all',
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      claims: [{ path: ['given_name'] }, { path: ['age_over_18'] }],
    },
  ],
};

/** Issues a PID-like SD-JWT VC from the test PKI's issuer leaf (x5c: leaf + intermediate). */
export function issuePid(pki: Pki, holder: Holder, overrides: Partial<IssueSdJwtVcOptions> = {}) {
  return issueSdJwtVc({
    signingKey: pki.issuer.keys.privateKey,
    x5c: [pki.issuer.x5c, pki.intermediate.x5c],
    claims: { iss: 'https://issuer.example', iat: NOW_SECONDS - 3600, exp: NOW_SECONDS + 86_400 },
    disclosable: { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true },
    holderPublicJwk: holder.publicJwk as JWK,
    ...overrides,
  });
}

/** Presents with a KB-JWT for the redirect flow unless told otherwise. */
export function presentPid(
  issued: PresentSdJwtVcOptions['issued'],
  holder: Holder,
  keyBinding: Partial<NonNullable<PresentSdJwtVcOptions['keyBinding']>> | null = {},
  extra: Partial<PresentSdJwtVcOptions> = {},
) {
  return presentSdJwtVc({
    issued,
    ...(keyBinding
      ? {
          keyBinding: {
            holderKey: holder.privateKey,
            nonce: NONCE,
            aud: CLIENT_ID,
            iat: NOW_SECONDS - 5,
            ...keyBinding,
          },
        }
      : {}),
    ...extra,
  });
}

/** verifyPresentation with the redirect session defaults and the test PKI root as the only anchor. */
export function verify(pki: Pki, overrides: Partial<VerifyPresentationOptions>) {
  return verifyPresentation({
    vpToken: {},
    dcqlQuery: PID_QUERY,
    clientId: CLIENT_ID,
    nonce: NONCE,
    responseUri: RESPONSE_URI,
    flow: { kind: 'redirect' },
    trust: { certificates: [pki.root.pem, pki.iaca.pem], dids: [] },
    statusLists: noStatusLists,
    now: NOW,
    ...overrides,
  });
}
