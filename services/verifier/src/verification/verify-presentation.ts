import type { Tracer } from '@opentelemetry/api';
import type { JWK } from 'jose';
import type { ClaimPath } from '@tessera/contracts';
import {
  CheckRow,
  describeError,
  failure,
  firstFailure,
  type CheckFailure,
  type VerificationCode,
} from './check-order.js';
import { checkCredentialStatus, type CredentialStatus } from './check-credential-status.js';
import { checkTransactionData } from './check-transaction-data.js';
import { checkVpTokenShape, type PresentationEntry } from './check-vp-token-shape.js';
import { evaluateDcql, type CredentialSetOutcome } from './evaluate-dcql.js';
import { loadDcqlQuery } from './load-dcql-query.js';
import { minimiseClaims } from './minimise-claims.js';
import { buildSessionTranscript, computeJwkThumbprint } from './session-transcript.js';
import type { StatusListChecker } from './check-credential-status.js';
import { nameTrustedEntity } from './name-trusted-entity.js';
import {
  isResolvedTrustStore,
  resolveTrustStore,
  type ResolvedTrustStore,
  type TrustStore,
  type VerificationCache,
} from './trust-store.js';
import { traceCheck } from './trace-check.js';
import type { VerifiedCredential } from './verified-credential.js';
import { verifyMdoc } from './verify-mdoc.js';
import { verifySdJwtVc } from './verify-sd-jwt-vc.js';

export type PresentationFlow = { kind: 'redirect' } | { kind: 'dc_api'; origin: string };

export interface VerifyPresentationOptions {
  /** The `vp_token` as parsed from the response (object, or its JSON string). */
  vpToken: unknown;
  /** The session's DCQL query as stored (may contain `combine`). */
  dcqlQuery: unknown;
  /** The full client_id, with its prefix (e.g. `x509_hash:…`). */
  clientId: string;
  /** The session nonce. */
  nonce: string;
  /** The session's response_uri (redirect flows; part of the mdoc OpenID4VPHandover). */
  responseUri?: string;
  /** Redirect (`direct_post[.jwt]`) or DC API with the origin the browser reported. */
  flow: PresentationFlow;
  /** The session's public encryption JWK when the response was encrypted (its thumbprint enters the mdoc handover). */
  encryptionJwk?: JWK;
  /**
   * DC API: the KB-JWT audiences accepted instead of `origin:<origin>` alone
   * (`domain/dc-api-audience.ts`: a multi-signed request also accepts its signers' client ids).
   */
  dcApiAudiences?: readonly string[];
  /**
   * The SessionTranscript (plain CBOR) mdoc device signatures must cover when
   * it is not an OpenID4VP one: the ISO/IEC 18013-7 Annex C transcript of an
   * `org-iso-mdoc` answer (`annex-c-session-transcript.ts`).
   */
  mdocSessionTranscript?: Uint8Array;
  /** `transaction_data` entries exactly as sent in the request. */
  transactionData?: string[];
  /**
   * Trusted issuers: anchors of the platform and the organisation, resolved
   * here; or an ecosystem trust list's store, resolved once per snapshot
   * (`resolve-trust-list-trust.ts`, kept by `state/trust-list-snapshots.ts`), whose anchors also name the trusted entities.
   */
  trust: TrustStore | ResolvedTrustStore;
  /** The replica's memory of resolved trust and validated chains; without it everything is derived afresh. */
  cache?: VerificationCache;
  statusLists: StatusListChecker;
  /** Verification time. */
  now: Date;
  /** Oldest acceptable KB-JWT `iat`, in seconds (`KB_MAX_AGE_SECONDS`); default 300. */
  kbMaxAgeSeconds?: number;
  /** Tolerated clock difference for `iat`, `nbf`/`exp` and mdoc validity; default 60. */
  clockSkewSeconds?: number;
  /** The service's tracer when tracing is on: each check then runs in a span (`trace-check.ts`); absent, none. */
  tracer?: Tracer;
}

/** One verified presentation, as `verifier-presentation-response` shows it. */
export interface VerifiedPresentation {
  credentialQueryId: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  vct?: string;
  doctype?: string;
  issuer: string;
  /** What the query asked for (and, SD-JWT, the registered claims): see `minimise-claims.ts`. */
  claims: Record<string, unknown>;
  /** Paths of the claims the wallet disclosed beyond the query; their values are not kept. */
  droppedClaims: ClaimPath[];
  holderBinding: boolean;
  validFrom?: string;
  validUntil?: string;
  status?: CredentialStatus;
  /** Under an ecosystem trust list: the entity the issuer was trusted as, and the list's sequence number. */
  trustedEntityId?: string;
  trustedEntityName?: string;
  trustListSequence?: number;
}

/**
 * A failure names its code and, when it concerns one, the credential query of the
 * request; `message` is the engine's diagnosis (see `CheckFailure`): never stored,
 * returned or logged by the service.
 */
export type VerifyPresentationResult =
  | { ok: true; presentations: VerifiedPresentation[]; credentialSets?: CredentialSetOutcome[] }
  | { ok: false; code: VerificationCode; credentialQueryId?: string; message: string };

/**
 * Verifies a wallet's vp_token against the session (VERIFIER.md,
 * Verification). Checks run in the table's order across all presentations;
 * the first failing row names the code. Every exception inside a check
 * becomes that check's failure: this never answers `ok: true` on error.
 */
export async function verifyPresentation(options: VerifyPresentationOptions): Promise<VerifyPresentationResult> {
  let stage: { row: CheckRow; code: VerificationCode } = { row: CheckRow.VP_TOKEN_SHAPE, code: 'INVALID_VP_TOKEN' };
  try {
    const query = loadDcqlQuery(options.dcqlQuery);
    if (!query.ok)
      return reject(
        failure(
          CheckRow.VP_TOKEN_SHAPE,
          'INVALID_VP_TOKEN',
          `The session's DCQL query cannot be used: ${query.message}.`,
        ),
      );
    const shape = await traceCheck(options.tracer, 'vp_token_shape', () =>
      checkVpTokenShape({ vpToken: options.vpToken, query: query.query }),
    );
    if (!shape.ok) return reject(shape.failure);

    const trust = isResolvedTrustStore(options.trust) ? options.trust : resolveTrustStore(options.trust, options.cache);
    const settings = {
      kbMaxAgeSeconds: options.kbMaxAgeSeconds ?? 300,
      clockSkewSeconds: options.clockSkewSeconds ?? 60,
    };
    const failures: CheckFailure[] = [];
    const verified: Array<{ entry: PresentationEntry; credential: VerifiedCredential }> = [];
    for (const entry of shape.entries) {
      stage =
        entry.format === 'mso_mdoc'
          ? { row: CheckRow.MDOC_ISSUER_SIGNATURE, code: 'ISSUER_SIGNATURE_INVALID' }
          : { row: CheckRow.SD_JWT_ISSUER_SIGNATURE, code: 'ISSUER_SIGNATURE_INVALID' };
      const result = await traceCheck(
        options.tracer,
        entry.format === 'mso_mdoc' ? 'mdoc_credential' : 'sd_jwt_vc_credential',
        () =>
          entry.format === 'mso_mdoc'
            ? verifyMdocEntry(entry, options, trust, settings)
            : verifySdJwtEntry(entry, options, trust, settings),
      );
      if (result.ok) verified.push({ entry, credential: result.credential });
      else failures.push({ ...result.failure, credentialQueryId: entry.credentialQueryId });
    }

    stage = { row: CheckRow.TRANSACTION_DATA, code: 'TRANSACTION_DATA_MISMATCH' };
    const transactionDataFailure = await traceCheck(options.tracer, 'transaction_data', () =>
      checkTransactionData({
        transactionData: options.transactionData ?? [],
        presentations: shape.entries.map((entry) => {
          const credential = verified.find((item) => item.entry === entry)?.credential;
          return {
            credentialQueryId: entry.credentialQueryId,
            format: entry.format,
            ...(credential?.keyBindingPayload ? { keyBindingPayload: credential.keyBindingPayload } : {}),
          };
        }),
      }),
    );
    if (transactionDataFailure) failures.push(transactionDataFailure);
    const earliest = firstFailure(failures);
    if (earliest) return reject(earliest);

    stage = { row: CheckRow.DCQL, code: 'DCQL_NOT_SATISFIED' };
    const credentials = verified.map((item) => item.credential);
    const dcql = await traceCheck(options.tracer, 'dcql', () => evaluateDcql({ query: query.query, credentials }));
    if (!dcql.ok) return reject(dcql.failure);

    stage = { row: CheckRow.STATUS, code: 'STATUS_LIST_UNAVAILABLE' };
    const presentations: VerifiedPresentation[] = [];
    for (const [index, credential] of credentials.entries()) {
      const status = await traceCheck(options.tracer, 'status', () =>
        checkCredentialStatus({
          credential,
          statusLists: options.statusLists,
          trust,
          now: options.now,
          clockSkewSeconds: settings.clockSkewSeconds,
        }),
      );
      if (!status.ok) return reject({ ...status.failure, credentialQueryId: credential.credentialQueryId });
      // Minimised here, so nothing downstream (result, stored row, DC API answer) ever holds the rest.
      const minimised = minimiseClaims({
        format: credential.format,
        claims: credential.claims,
        selection: dcql.selections[index]!,
      });
      presentations.push({
        ...toPresentation(credential, status.status, minimised),
        ...nameTrustedEntity(trust, credential.issuerTrust, credential.vct ?? credential.doctype),
      });
    }
    return { ok: true, presentations, ...(dcql.credentialSets ? { credentialSets: dcql.credentialSets } : {}) };
  } catch (error) {
    return reject(failure(stage.row, stage.code, `Verification failed unexpectedly: ${describeError(error)}.`));
  }
}

type Settings = { kbMaxAgeSeconds: number; clockSkewSeconds: number };

async function verifySdJwtEntry(
  entry: PresentationEntry,
  options: VerifyPresentationOptions,
  trust: ResolvedTrustStore,
  settings: Settings,
) {
  return verifySdJwtVc({
    credentialQueryId: entry.credentialQueryId,
    presentation: entry.presentation,
    trust,
    requireHolderBinding: entry.requireHolderBinding,
    nonce: options.nonce,
    // OpenID4VP 1.0 Appendix A: over the DC API the audience is the origin, prefixed.
    audience:
      options.flow.kind === 'dc_api' ? (options.dcApiAudiences ?? `origin:${options.flow.origin}`) : options.clientId,
    now: options.now,
    ...settings,
    ...(options.tracer ? { tracer: options.tracer } : {}),
  }).catch((error: unknown) => ({
    ok: false as const,
    failure: failure(
      CheckRow.SD_JWT_ISSUER_SIGNATURE,
      'ISSUER_SIGNATURE_INVALID',
      `The presentation for credential query "${entry.credentialQueryId}" cannot be verified: ${describeError(error)}.`,
    ),
  }));
}

async function verifyMdocEntry(
  entry: PresentationEntry,
  options: VerifyPresentationOptions,
  trust: ResolvedTrustStore,
  settings: Settings,
) {
  try {
    const jwkThumbprint = options.encryptionJwk ? await computeJwkThumbprint(options.encryptionJwk) : null;
    if (options.flow.kind === 'redirect' && !options.responseUri && !options.mdocSessionTranscript)
      throw new Error('a redirect session needs its response_uri for the mdoc handover');
    const sessionTranscript =
      options.mdocSessionTranscript ??
      buildSessionTranscript({
        flow:
          options.flow.kind === 'dc_api'
            ? { kind: 'dc_api', origin: options.flow.origin }
            : { kind: 'redirect', clientId: options.clientId, responseUri: options.responseUri! },
        nonce: options.nonce,
        jwkThumbprint,
      });
    return await verifyMdoc({
      credentialQueryId: entry.credentialQueryId,
      presentation: entry.presentation,
      trust,
      requireHolderBinding: entry.requireHolderBinding,
      sessionTranscript,
      now: options.now,
      clockSkewSeconds: settings.clockSkewSeconds,
      ...(options.tracer ? { tracer: options.tracer } : {}),
    });
  } catch (error) {
    return {
      ok: false as const,
      failure: failure(
        CheckRow.MDOC_ISSUER_SIGNATURE,
        'ISSUER_SIGNATURE_INVALID',
        `The presentation for credential query "${entry.credentialQueryId}" cannot be verified: ${describeError(error)}.`,
      ),
    };
  }
}

function toPresentation(
  credential: VerifiedCredential,
  status: CredentialStatus | undefined,
  minimised: { claims: Record<string, unknown>; droppedClaims: ClaimPath[] },
): VerifiedPresentation {
  return {
    credentialQueryId: credential.credentialQueryId,
    format: credential.format,
    ...(credential.vct !== undefined ? { vct: credential.vct } : {}),
    ...(credential.doctype !== undefined ? { doctype: credential.doctype } : {}),
    issuer: credential.issuer,
    claims: minimised.claims,
    droppedClaims: minimised.droppedClaims,
    holderBinding: credential.holderBinding,
    ...(credential.validFrom ? { validFrom: credential.validFrom } : {}),
    ...(credential.validUntil ? { validUntil: credential.validUntil } : {}),
    ...(status ? { status } : {}),
  };
}

function reject(checkFailure: CheckFailure): VerifyPresentationResult {
  return {
    ok: false,
    code: checkFailure.code,
    ...(checkFailure.credentialQueryId !== undefined ? { credentialQueryId: checkFailure.credentialQueryId } : {}),
    message: checkFailure.message,
  };
}
