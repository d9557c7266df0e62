import { randomBytes, randomUUID } from 'node:crypto';
import {
  ErrorCode,
  sessionUpdatedEvent,
  type ClientIdPrefix,
  type DcApiProtocol,
  type DcApiRequest,
  type OverAskingPath,
  type RequestSigner,
  type ResponseMode,
  type SignerOption,
} from '@tessera/contracts';
import { type Clock, type MessageBus, notFound, publishEvent } from '@tessera/service-kit';
import { generateEncryptionKey } from '../../crypto/encryption-key.js';
import type { KeyEncryptionKey } from '../../crypto/key-encryption.js';
import { sessionKeyContext } from '../../crypto/sealing-contexts.js';
import { signRequestObject } from '../../crypto/sign-request-object.js';
import type { SessionRow, VerifierRow } from '../../db/schema.js';
import { insertSession, type InsertSessionExpectations } from '../../db/insert-session.js';
import type { VerifierDb } from '../../db/types.js';
import {
  DEFAULT_DC_API_PROTOCOLS,
  deviceRequestNotSupported,
  primaryDcApiRequest,
} from '../../domain/dc-api-protocols.js';
import { planDeviceRequest } from '../../domain/device-request-plan.js';
import { verifierNotFound } from '../../domain/errors.js';
import { requireHaipCompliance } from '../../domain/haip-profile.js';
import { checkPayloadState } from '../../domain/payload-state.js';
import { buildAuthorizationRequestUri, buildClientMetadata, buildRequestObject } from '../../domain/request-object.js';
import { resolveRequestSigner } from '../../domain/request-signer.js';
import { isDcApiMode, isEncryptedMode } from '../../domain/response-mode.js';
import type { VerifierInfoAttestation } from '../../domain/verifier-info.js';
import type { VerifierMetrics } from '../../metrics/verifier-metrics.js';
import type { RememberSigningMaterial } from '../../state/signing-material-loader.js';
import { buildDcApiRequests, type BuildDcApiRequestsDeps } from './build-dc-api-requests.js';
import { prepareSessionSigner } from './session-signer.js';

// Shared step of both create-session use cases: everything after their own
// checks (response mode, DCQL, transaction data, the verifier's existence).

/** The options both create-session bodies share. */
export interface SessionOptions {
  responseMode: ResponseMode;
  expectedOrigins?: string[];
  payloadState?: string;
  requestSigner?: RequestSigner;
  expiresInSeconds?: number;
  presentationDataTtlSeconds?: number;
  transactionData?: Array<Record<string, unknown>>;
  redirectUri?: string;
  /** DC API modes: the protocols to offer (already checked with `checkDcApiProtocolOptions`). */
  dcApiProtocols?: DcApiProtocol[];
}

export interface StartPresentationSessionDeps extends BuildDcApiRequestsDeps {
  db: VerifierDb;
  bus: MessageBus;
  clock: Clock;
  /** Seals the session's decryption keys (encrypted modes, `org-iso-mdoc`). */
  keyEncryptionKey: KeyEncryptionKey;
  /** PUBLIC_BASE_URL without a trailing slash: base of request_uri and response_uri. */
  baseUrl: string;
  /** Lifetime when the body gives no `expiresInSeconds`. */
  sessionTtlSeconds: number;
  metrics: Pick<VerifierMetrics, 'countSessionCreated'>;
  /** The signing material this replica last derived (`remembered` inputs sign with it instead of reading the key row). */
  rememberedSigningMaterial?: RememberSigningMaterial;
}

/**
 * Thrown when a session made from remembered inputs (`StartPresentationSessionInput.remembered`)
 * could not be: no signing material remembered, or its insert found the verifier, its
 * registration certificate or the signing key changed. Nothing was written; the caller
 * reads the inputs and starts again.
 */
export class RememberedInputsChanged extends Error {
  constructor() {
    super('the inputs remembered for this session are no longer current');
    this.name = 'RememberedInputsChanged';
  }
}

export interface StartPresentationSessionInput {
  orgId: string;
  /** The verifier the caller found (its 404 comes first); the insert locks it again by id as the race guard. */
  verifier: VerifierRow;
  /** Already checked (`checkResponseModeOptions`). */
  options: SessionOptions;
  /** The query as sent to wallets (valid, without `combine`). */
  dcqlQuery: Record<string, unknown>;
  /** JSON Pointer of the query in the caller's body or template, for `org-iso-mdoc` refusals. */
  queryPointer: string;
  /** `encodeSessionTransactionData` of the body's entries. */
  transactionData: string[] | null;
  /** Intent-based: the template's signer, used when the body names none. */
  fallbackSigner?: { method: SignerOption; clientIdPrefix?: ClientIdPrefix | null };
  templateId?: string;
  intentId?: string;
  ecosystemId?: string;
  /** The ecosystem whose trust list alone the session is verified against (its query already names the list's issuers). */
  trustEcosystemId?: string;
  /** What `judgeRegisteredUse` found: sent (`verifier_info`) and stored (`overAsking`) as judged. */
  judgement?: { verifierInfo: VerifierInfoAttestation[] | null; overAsking: OverAskingPath[] | null };
  /**
   * The verifier (and its registration certificate) as this replica remembered it rather
   * than read it: the session is signed with the remembered signing material too, and the
   * insert checks both are still what is stored (else `RememberedInputsChanged`).
   */
  remembered?: { verifier: InsertSessionExpectations['verifier'] };
  requestId?: string;
}

export interface StartedPresentationSession {
  session: SessionRow;
  /** The creation time (the state is read at it). */
  createdAt: Date;
  /**
   * DC API modes: one request per offered protocol, in order, for the browser, and
   * `dcApiRequest`, the signed one when offered, else the first (redirect sessions
   * store their request object for the wallet's fetch).
   */
  dcApiRequests?: DcApiRequest[];
  dcApiRequest?: DcApiRequest;
}

/** ≥ 128 bits of randomness (VERIFIER.md); 256 here. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Creates a presentation session: checks the request's own rules (a `strictHaip`
 * verifier's HAIP profile: 400 NOT_HAIP_COMPLIANT; a caller's `payloadState` when it
 * is the answer's only binding), fixes the signer and its `client_id`, makes the
 * per-session encryption key for encrypted modes, and stores everything verification
 * will need (and what was judged of the verifier's registration), then publishes
 * `verifier.v1.session.updated`.
 */
export async function startPresentationSession(
  deps: StartPresentationSessionDeps,
  input: StartPresentationSessionInput,
): Promise<StartedPresentationSession> {
  const { options, verifier } = input;
  const signer = resolveRequestSigner({
    ...(options.requestSigner ? { requested: options.requestSigner } : {}),
    ...(input.fallbackSigner ? { fallback: input.fallbackSigner } : {}),
  });
  if (verifier.strictHaip)
    requireHaipCompliance({ verifierId: verifier.verifierId, responseMode: options.responseMode, signer });
  checkPayloadState({
    ...(options.payloadState !== undefined ? { payloadState: options.payloadState } : {}),
    responseMode: options.responseMode,
    dcqlQuery: input.dcqlQuery,
  });
  const verifierInfo = input.judgement?.verifierInfo ?? null;
  const dcApi = isDcApiMode(options.responseMode);
  const protocols = dcApi ? (options.dcApiProtocols ?? [...DEFAULT_DC_API_PROTOCOLS]) : null;
  // What a DeviceRequest cannot express is refused before any key is made.
  const annexCPlan = protocols?.includes('org-iso-mdoc') ? planDeviceRequest(input.dcqlQuery) : undefined;
  if (annexCPlan && !annexCPlan.ok) throw deviceRequestNotSupported(annexCPlan, input.queryPointer);
  const remembered = input.remembered
    ? deps.rememberedSigningMaterial?.({ orgId: input.orgId, keyType: signer.keyType })
    : undefined;
  if (input.remembered && !remembered) throw new RememberedInputsChanged();
  const prepared = await prepareSessionSigner(deps, {
    orgId: input.orgId,
    signer,
    ...(remembered ? { material: remembered.material } : {}),
  });
  const encryptionKey = isEncryptedMode(options.responseMode) ? await generateEncryptionKey() : undefined;
  const now = deps.clock();
  const id = randomUUID();
  const authorizationRequestId = randomToken();
  const requestUri = dcApi ? null : `${deps.baseUrl}/oid4vp/authorization-requests/${authorizationRequestId}`;
  const responseUri = dcApi ? null : `${deps.baseUrl}/oid4vp/authorization-responses/${authorizationRequestId}`;
  const expiresAt = new Date(now.getTime() + (options.expiresInSeconds ?? deps.sessionTtlSeconds) * 1000);
  const nonce = randomToken();
  const payloadState = options.payloadState ?? randomToken();
  const clientMetadata = buildClientMetadata({
    display: verifier.clientMetadata,
    encryptionPublicJwk: encryptionKey?.publicJwk ?? null,
  });
  const requestPayload = buildRequestObject({
    clientId: prepared.clientId,
    responseMode: options.responseMode,
    nonce,
    state: payloadState,
    ...(responseUri ? { responseUri } : {}),
    dcqlQuery: input.dcqlQuery,
    clientMetadata,
    transactionData: input.transactionData,
    expectedOrigins: options.expectedOrigins ?? null,
    verifierInfo,
    now,
    expiresAt,
  });
  // Signed once, here: every plain fetch serves this object (VERIFIER.md; a wallet_nonce gets a fresh one).
  const requestObject = await signRequestObject({ key: prepared.key, payload: requestPayload });
  // Every DC API protocol's request derives from the same payload.
  const dcApiRequests = protocols
    ? await buildDcApiRequests(deps, {
        orgId: input.orgId,
        sessionId: id,
        protocols,
        requestObject: requestPayload,
        signedRequestObject: requestObject,
        signer,
        prepared,
        ...(annexCPlan?.ok
          ? { annexC: { docRequests: annexCPlan.docRequests, origin: options.expectedOrigins![0]! } }
          : {}),
      })
    : undefined;

  // The insert locks the verifier and template FOR SHARE (the race guard against a concurrent delete).
  const inserted = await insertSession(
    deps.db,
    {
      id,
      orgId: input.orgId,
      verifierRef: verifier.id,
      publicVerifierId: verifier.verifierId,
      templateId: input.templateId ?? null,
      intentId: input.intentId ?? null,
      ecosystemId: input.ecosystemId ?? null,
      trustEcosystemId: input.trustEcosystemId ?? null,
      authorizationRequestId,
      authorizationRequestUri: requestUri
        ? buildAuthorizationRequestUri({ clientId: prepared.clientId, requestUri })
        : null,
      requestUri,
      responseUri,
      clientId: prepared.clientId,
      signerMethod: signer.method,
      clientIdPrefix: signer.clientIdPrefix,
      signingChain: prepared.signingChain,
      requestObject: dcApi ? null : requestObject,
      nonce,
      payloadState,
      responseMode: options.responseMode,
      expectedOrigins: options.expectedOrigins ?? null,
      dcqlQuery: input.dcqlQuery,
      transactionData: input.transactionData,
      redirectUri: options.redirectUri ?? null,
      presentationDataTtlSeconds: options.presentationDataTtlSeconds ?? null,
      verifierInfo: verifierInfo as Array<Record<string, unknown>> | null,
      overAsking: (input.judgement?.overAsking as Array<Record<string, unknown>> | null | undefined) ?? null,
      clientMetadata,
      encryptionPublicJwk: (encryptionKey?.publicJwk as Record<string, unknown> | undefined) ?? null,
      encryptedEncryptionKey: encryptionKey
        ? deps.keyEncryptionKey.seal(JSON.stringify(encryptionKey.privateJwk), sessionKeyContext(id))
        : null,
      // As the relying party named them; null (the default, shown as nothing) keeps today's record for clients that name none.
      dcApiProtocols: dcApi && options.dcApiProtocols ? [...options.dcApiProtocols] : null,
      dcApiSignerClientIds: dcApiRequests?.signerClientIds ?? null,
      annexCEncryptionInfo: dcApiRequests?.annexC?.encryptionInfo ?? null,
      encryptedAnnexCKey: dcApiRequests?.annexC?.encryptedKey ?? null,
      state: 'RequestCreated',
      expiresAt,
      createdAt: now,
      updatedAt: now,
    },
    input.remembered && remembered
      ? { verifier: input.remembered.verifier, signingKey: { keyType: signer.keyType, ...remembered.version } }
      : undefined,
  );
  if ('changed' in inserted) throw new RememberedInputsChanged();
  if ('missing' in inserted) {
    throw inserted.missing === 'verifier'
      ? verifierNotFound(verifier.verifierId)
      : notFound(
          'The verification template of this intent no longer exists.',
          ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND,
        );
  }
  const { session } = inserted;
  deps.metrics.countSessionCreated(options.responseMode, signer.method);
  publishEvent(
    deps.bus,
    sessionUpdatedEvent,
    { id: session.id, orgId: session.orgId, state: 'RequestCreated' },
    { requestId: input.requestId },
  );
  if (!dcApiRequests) return { session, createdAt: now };
  return {
    session,
    createdAt: now,
    dcApiRequests: dcApiRequests.requests,
    dcApiRequest: primaryDcApiRequest(dcApiRequests.requests),
  };
}
