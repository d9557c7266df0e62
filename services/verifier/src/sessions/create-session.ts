import { randomBytes, randomUUID } from 'node:crypto';
import { ErrorCode, type CreatedPresentation, type ClientIdPrefix, type IntentNotice, type RequestSigner, type ResponseMode, type SignerOption } from '@tessera/contracts';
import { badRequest, notFound } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { insertSession } from '../db/sessions.js';
import { findTemplateById } from '../db/templates.js';
import { findVerifier } from '../db/verifiers.js';
import { generateEncryptionKey } from '../crypto/encryption-key.js';
import { signRequestObject } from '../crypto/sign-request-object.js';
import { credentialQueryIds } from '../domain/dcql.js';
import { buildAuthorizationRequestUri, buildClientMetadata, buildRequestObject } from '../domain/request-object.js';
import { resolveRequestSigner } from '../domain/request-signer.js';
import { checkResponseModeOptions, isDcApiMode, isEncryptedMode } from '../domain/response-mode.js';
import { encodeTransactionData } from '../domain/transaction-data.js';
import { prepareSigner } from './request-signing.js';
import { publishSessionUpdated } from './session-events.js';
import { toCreatedPresentation } from './session-view.js';

/** The options both create-session bodies share. */
export interface SessionOptions {
  responseMode: ResponseMode;
  expectedOrigins?: string[];
  payloadState?: string;
  requestSigner?: RequestSigner;
  expiresInSeconds?: number;
  transactionData?: Array<Record<string, unknown>>;
  redirectUri?: string;
}

export interface CreateSessionInput {
  orgId: string;
  verifierId: string;
  options: SessionOptions;
  /** The query as sent to wallets (already validated, without `combine`). */
  dcqlQuery: Record<string, unknown>;
  /** Intent-based: the template's signer, used when the body names none. */
  fallbackSigner?: { method: SignerOption; clientIdPrefix?: ClientIdPrefix | null };
  templateId?: string;
  intentId?: string;
  ecosystemId?: string;
  notice?: IntentNotice;
  requestId?: string;
}

/** ≥ 128 bits of randomness (VERIFIER.md); 256 here. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** 404 VERIFIER_NOT_FOUND unless the organisation has this verifier. */
export async function requireVerifier(ctx: VerifierContext, orgId: string, verifierId: string) {
  const verifier = await findVerifier(ctx.db, { orgId, verifierId });
  if (!verifier) throw notFound(`The organisation has no verifier "${verifierId}".`, ErrorCode.VERIFIER_NOT_FOUND);
  return verifier;
}

/**
 * Creates a presentation session: checks the options, fixes the signer and its
 * `client_id`, makes the per-session encryption key for encrypted modes, and
 * stores everything verification will need. DC API sessions get their signed
 * request now (`dcApiRequest`); redirect sessions are signed when the wallet fetches.
 */
export async function createPresentationSession(ctx: VerifierContext, input: CreateSessionInput): Promise<CreatedPresentation> {
  const { options } = input;
  checkResponseModeOptions(options);
  const transactionData = options.transactionData ? encodeTransactionData({ entries: options.transactionData, credentialIds: credentialQueryIds(input.dcqlQuery) }) : undefined;
  if (transactionData && !transactionData.ok) throw badRequest('transactionData must name credential queries of the DCQL query.', transactionData.details);
  await requireVerifier(ctx, input.orgId, input.verifierId);
  const signer = resolveRequestSigner({ ...(options.requestSigner ? { requested: options.requestSigner } : {}), ...(input.fallbackSigner ? { fallback: input.fallbackSigner } : {}) });
  const prepared = await prepareSigner(ctx, { orgId: input.orgId, signer });
  const encryptionKey = isEncryptedMode(options.responseMode) ? await generateEncryptionKey() : undefined;
  const now = ctx.now();
  const id = randomUUID();
  const authorizationRequestId = randomToken();
  const dcApi = isDcApiMode(options.responseMode);
  const requestUri = dcApi ? null : `${ctx.baseUrl}/oid4vp/authorization-requests/${authorizationRequestId}`;
  const responseUri = dcApi ? null : `${ctx.baseUrl}/oid4vp/authorization-responses/${authorizationRequestId}`;
  const expiresAt = new Date(now.getTime() + (options.expiresInSeconds ?? ctx.config.SESSION_TTL_SECONDS) * 1000);

  const row = await ctx.db.transaction(async (tx) => {
    // FOR SHARE: a concurrent delete of the verifier or template waits for this insert and then sees the open session.
    const verifier = await findVerifier(tx, { orgId: input.orgId, verifierId: input.verifierId, lock: 'share' });
    if (!verifier) throw notFound(`The organisation has no verifier "${input.verifierId}".`, ErrorCode.VERIFIER_NOT_FOUND);
    if (input.templateId && !(await findTemplateById(tx, { id: input.templateId, lock: 'share' }))) {
      throw notFound('The verification template of this intent no longer exists.', ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
    }
    return insertSession(tx, {
      id,
      orgId: input.orgId,
      verifierRef: verifier.id,
      publicVerifierId: verifier.verifierId,
      templateId: input.templateId ?? null,
      intentId: input.intentId ?? null,
      ecosystemId: input.ecosystemId ?? null,
      authorizationRequestId,
      authorizationRequestUri: requestUri ? buildAuthorizationRequestUri({ clientId: prepared.clientId, requestUri }) : null,
      requestUri,
      responseUri,
      clientId: prepared.clientId,
      signerMethod: signer.method,
      clientIdPrefix: signer.clientIdPrefix,
      signingChain: prepared.signingChain,
      nonce: randomToken(),
      payloadState: options.payloadState ?? randomToken(),
      responseMode: options.responseMode,
      expectedOrigins: options.expectedOrigins ?? null,
      dcqlQuery: input.dcqlQuery,
      transactionData: transactionData?.ok ? transactionData.encoded : null,
      redirectUri: options.redirectUri ?? null,
      clientMetadata: buildClientMetadata({ display: verifier.clientMetadata, encryptionPublicJwk: encryptionKey?.publicJwk ?? null }),
      encryptionPublicJwk: (encryptionKey?.publicJwk as Record<string, unknown> | undefined) ?? null,
      encryptedEncryptionKey: encryptionKey ? ctx.keyEncryptionKey.seal(JSON.stringify(encryptionKey.privateJwk), sessionKeyContext(id)) : null,
      state: 'RequestCreated',
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
  });
  publishSessionUpdated(ctx.bus, { id: row.id, orgId: row.orgId, state: 'RequestCreated' }, input.requestId);

  const dcApiRequest = dcApi
    ? {
        protocol: 'openid4vp-v1-signed' as const,
        data: {
          request: await signRequestObject({
            key: prepared.key,
            payload: buildRequestObject({
              clientId: row.clientId,
              responseMode: options.responseMode,
              nonce: row.nonce,
              state: row.payloadState,
              dcqlQuery: row.dcqlQuery,
              clientMetadata: row.clientMetadata,
              transactionData: row.transactionData,
              expectedOrigins: row.expectedOrigins,
              now,
              expiresAt,
            }),
          }),
        },
      }
    : undefined;
  return toCreatedPresentation(row, now, { ...(dcApiRequest ? { dcApiRequest } : {}), ...(input.notice ? { notice: input.notice } : {}) });
}

/** AAD of a session's sealed decryption key: binds it to the session. */
export function sessionKeyContext(sessionId: string): string {
  return `session-encryption-key:${sessionId}`;
}
