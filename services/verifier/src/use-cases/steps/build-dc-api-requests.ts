import type { webcrypto } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { DcApiProtocol, DcApiRequest } from '@tessera/contracts';
import { buildDeviceRequest } from '../../crypto/annex-c-device-request.js';
import { generateAnnexCEncryptionKey } from '../../crypto/annex-c-encryption-key.js';
import type { KeyEncryptionKey } from '../../crypto/key-encryption.js';
import { annexCSessionKeyContext } from '../../crypto/sealing-contexts.js';
import { signMultiSignedRequest } from '../../crypto/sign-multi-signed-request.js';
import { findSigningKey } from '../../db/signing-keys.js';
import type { VerifierDb } from '../../db/types.js';
import { buildUnsignedDcApiRequest, splitMultiSignedRequest } from '../../domain/dc-api-request-payloads.js';
import type { PlannedDocRequest } from '../../domain/device-request-plan.js';
import { multiSignedSigners } from '../../domain/multi-signed-signers.js';
import type { ResolvedSigner } from '../../domain/request-signer.js';
import type { LoadReaderAuthMaterial } from '../../state/reader-auth-material-loader.js';
import { buildAnnexCSessionTranscript } from '../../verification/annex-c-session-transcript.js';
import { prepareSessionSigner, type PrepareSessionSignerDeps, type PreparedSessionSigner } from './session-signer.js';

// Shared step of session creation (DC API modes): the request for each protocol
// the session offers, all from the one request object the signed protocol signs.

export interface BuildDcApiRequestsDeps extends PrepareSessionSignerDeps {
  db: VerifierDb;
  /** Seals the Annex C recipient key. */
  keyEncryptionKey: KeyEncryptionKey;
  /** The organisation's reader-authentication key and chain (`org-iso-mdoc`). */
  loadReaderAuthMaterial: LoadReaderAuthMaterial;
}

export interface BuildDcApiRequestsInput {
  orgId: string;
  sessionId: string;
  /** In the relying party's order. */
  protocols: readonly DcApiProtocol[];
  /** The request object's payload, as the signed protocol signs it. */
  requestObject: JWTPayload;
  /** That payload signed by the session's signer (compact JWS). */
  signedRequestObject: string;
  /** The session's own signer and what it prepared (its `client_id` is the session's). */
  signer: ResolvedSigner;
  prepared: PreparedSessionSigner;
  /** `org-iso-mdoc`: the DeviceRequest's DocRequests (`planDeviceRequest` of the query) and the session's one origin. */
  annexC?: { docRequests: PlannedDocRequest[]; origin: string };
}

export interface BuiltDcApiRequests {
  requests: DcApiRequest[];
  /** `openid4vp-v1-multisigned`: the signers' full client ids (a KB-JWT `aud` may name one). */
  signerClientIds: string[] | null;
  /** `org-iso-mdoc`: the EncryptionInfo as sent and its recipient key sealed (AAD `annex-c-session-key:<id>`). */
  annexC: { encryptionInfo: string; encryptedKey: string } | null;
}

/**
 * One `{ protocol, data }` per offered protocol, in order:
 * - `openid4vp-v1-signed`: the signed request object (compact JWS);
 * - `openid4vp-v1-unsigned`: the same parameters as JSON, without `client_id`
 *   (`buildUnsignedDcApiRequest`);
 * - `openid4vp-v1-multisigned`: the payload without `client_id` and
 *   `verifier_info`, one signature per request signer of the organisation, each
 *   protected header with its `client_id` and key material and the request's
 *   `verifier_info` (`splitMultiSignedRequest`);
 * - `org-iso-mdoc`: a DeviceRequest whose ReaderAuths are signed over the Annex C
 *   transcript of a fresh EncryptionInfo and the session's origin, with the
 *   organisation's reader chain.
 */
export async function buildDcApiRequests(
  deps: BuildDcApiRequestsDeps,
  input: BuildDcApiRequestsInput,
): Promise<BuiltDcApiRequests> {
  const requests: DcApiRequest[] = [];
  let signerClientIds: string[] | null = null;
  let annexC: BuiltDcApiRequests['annexC'] = null;
  for (const protocol of input.protocols) {
    switch (protocol) {
      case 'openid4vp-v1-signed':
        requests.push({ protocol, data: { request: input.signedRequestObject } });
        break;
      case 'openid4vp-v1-unsigned':
        requests.push({ protocol, data: buildUnsignedDcApiRequest(input.requestObject) });
        break;
      case 'openid4vp-v1-multisigned': {
        const signers = await prepareMultiSigners(deps, input);
        const { payload, protectedHeader } = splitMultiSignedRequest(input.requestObject);
        requests.push({
          protocol,
          data: { request: await signMultiSignedRequest({ payload, signers, protectedHeader }) },
        });
        signerClientIds = signers.map((signer) => signer.clientId);
        break;
      }
      case 'org-iso-mdoc': {
        if (!input.annexC) throw new Error('org-iso-mdoc needs its DeviceRequest plan and origin');
        const built = await buildAnnexCRequest(deps, { ...input, annexC: input.annexC });
        requests.push({ protocol, data: built.data });
        annexC = built.stored;
        break;
      }
    }
  }
  return { requests, signerClientIds, annexC };
}

/** Every request signer of the organisation, the session's own first (`multiSignedSigners`). */
async function prepareMultiSigners(deps: BuildDcApiRequestsDeps, input: BuildDcApiRequestsInput) {
  const hasEd25519Key = (await findSigningKey(deps.db, { orgId: input.orgId, keyType: 'ED25519' })) !== undefined;
  const prepared: PreparedSessionSigner[] = [];
  for (const signer of multiSignedSigners(input.signer, { hasEd25519Key })) {
    prepared.push(
      signer === input.signer ? input.prepared : await prepareSessionSigner(deps, { orgId: input.orgId, signer }),
    );
  }
  return prepared.map(({ clientId, key }) => ({ clientId, key }));
}

async function buildAnnexCRequest(
  deps: BuildDcApiRequestsDeps,
  input: BuildDcApiRequestsInput & { annexC: NonNullable<BuildDcApiRequestsInput['annexC']> },
) {
  const reader = await deps.loadReaderAuthMaterial({ orgId: input.orgId });
  const key = await generateAnnexCEncryptionKey();
  const deviceRequest = buildDeviceRequest({
    docRequests: input.annexC.docRequests,
    sessionTranscript: buildAnnexCSessionTranscript({
      encryptionInfo: key.encryptionInfo,
      origin: input.annexC.origin,
    }),
    readerAuthKey: {
      privateKey: reader.privateKey as webcrypto.CryptoKey,
      certificateChain: reader.chain.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
    },
  });
  return {
    data: { deviceRequest, encryptionInfo: key.encryptionInfo },
    stored: {
      encryptionInfo: key.encryptionInfo,
      encryptedKey: deps.keyEncryptionKey.seal(
        JSON.stringify(key.privateJwk),
        annexCSessionKeyContext(input.sessionId),
      ),
    },
  };
}
