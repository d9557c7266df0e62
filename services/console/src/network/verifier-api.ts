import type {
  CertificateKeyType,
  CreateCertificateSigningRequestBody,
  CreatedPresentation,
  CreateIntentPresentationBody,
  CreatePresentationBody,
  CreateTrustAnchorBody,
  CreateVerifierBody,
  ImportCertificateBody,
  ImportReaderCertificateBody,
  PageOf,
  PendingCertificateSigningRequest,
  PresentationRead,
  PresentationResponse,
  PresentationSession,
  PutRegistrationCertificateBody,
  PutWebhookBody,
  ReaderCertificate,
  RegistrationCertificate,
  SessionListQuery,
  SigningCertificate,
  SigningCertificatesEntry,
  TrustAnchor,
  PatchVerifierBody,
  VerificationTemplate,
  VerificationTemplateBody,
  Verifier,
  Webhook,
  WebhookDelivery,
  WebhookWithSecret,
} from '@tessera/contracts';
import { pathOf, type CallOptions, type ServiceClient } from './service-client.js';

/** Paging of every list route. */
export interface PageQuery {
  pageNumber?: number;
  pageSize?: number;
}

/** The verifier's management API under `/v1/orgs/{orgId}/oid4vp`, one function per route (services/verifier/README.md). */
export function createVerifierApi(client: ServiceClient) {
  const org = (orgId: string, rest: string) => `${pathOf`/v1/orgs/${orgId}/oid4vp/`}${rest}`;
  const as = (token: string, extra: Omit<CallOptions, 'token'> = {}): CallOptions => ({ token, ...extra });
  return {
    listVerifiers: (token: string, orgId: string, page: PageQuery = {}) =>
      client.data<PageOf<Verifier>>('GET', org(orgId, 'verifier'), as(token, { query: { ...page } })),
    getVerifier: (token: string, orgId: string, verifierId: string) =>
      client.data<Verifier>('GET', org(orgId, pathOf`verifier/${verifierId}`), as(token)),
    createVerifier: (token: string, orgId: string, body: CreateVerifierBody) =>
      client.data<Verifier>('POST', org(orgId, 'verifier'), as(token, { body })),
    /** Only the fields sent change (the verifier's PATCH): no read before a write, no lost update. */
    patchVerifier: (token: string, orgId: string, verifierId: string, body: PatchVerifierBody) =>
      client.data<Verifier>('PATCH', org(orgId, pathOf`verifier/${verifierId}`), as(token, { body })),
    deleteVerifier: (token: string, orgId: string, verifierId: string) =>
      client.data<Verifier>('DELETE', org(orgId, pathOf`verifier/${verifierId}`), as(token)),

    listTemplates: (token: string, orgId: string, page: PageQuery = {}) =>
      client.data<PageOf<VerificationTemplate>>(
        'GET',
        org(orgId, 'verification-template'),
        as(token, { query: { ...page } }),
      ),
    getTemplate: (token: string, orgId: string, templateId: string) =>
      client.data<VerificationTemplate>('GET', org(orgId, pathOf`verification-template/${templateId}`), as(token)),
    createTemplate: (token: string, orgId: string, body: VerificationTemplateBody) =>
      client.data<VerificationTemplate>('POST', org(orgId, 'verification-template'), as(token, { body })),
    updateTemplate: (token: string, orgId: string, templateId: string, body: VerificationTemplateBody) =>
      client.data<VerificationTemplate>(
        'PUT',
        org(orgId, pathOf`verification-template/${templateId}`),
        as(token, { body }),
      ),
    deleteTemplate: (token: string, orgId: string, templateId: string) =>
      client.data<VerificationTemplate>('DELETE', org(orgId, pathOf`verification-template/${templateId}`), as(token)),

    listTrustAnchors: (token: string, orgId: string, page: PageQuery = {}) =>
      client.data<PageOf<TrustAnchor>>('GET', org(orgId, 'trust-anchors'), as(token, { query: { ...page } })),
    createTrustAnchor: (token: string, orgId: string, body: CreateTrustAnchorBody) =>
      client.data<TrustAnchor>('POST', org(orgId, 'trust-anchors'), as(token, { body })),
    deleteTrustAnchor: (token: string, orgId: string, anchorId: string) =>
      client.data<TrustAnchor>('DELETE', org(orgId, pathOf`trust-anchors/${anchorId}`), as(token)),

    getSigningCertificate: (token: string, orgId: string, keyType: CertificateKeyType) =>
      client.data<SigningCertificate>('GET', org(orgId, pathOf`certificates/${keyType}`), as(token)),
    importSigningCertificate: (
      token: string,
      orgId: string,
      keyType: CertificateKeyType,
      body: ImportCertificateBody,
    ) => client.data<SigningCertificate>('PUT', org(orgId, pathOf`certificates/${keyType}`), as(token, { body })),

    /** Per key type the signer in force and the CSR waiting for its chain (issue 25). */
    listSigningCertificates: (token: string, orgId: string) =>
      client.data<SigningCertificatesEntry[]>('GET', org(orgId, 'certificates'), as(token)),
    createCertificateSigningRequest: (
      token: string,
      orgId: string,
      keyType: CertificateKeyType,
      body: CreateCertificateSigningRequestBody,
    ) =>
      client.data<PendingCertificateSigningRequest>(
        'POST',
        org(orgId, pathOf`certificates/${keyType}/csr`),
        as(token, { body }),
      ),
    getReaderCertificate: (token: string, orgId: string) =>
      client.data<ReaderCertificate>('GET', org(orgId, 'certificates/READER'), as(token)),
    importReaderCertificate: (token: string, orgId: string, body: ImportReaderCertificateBody) =>
      client.data<ReaderCertificate>('PUT', org(orgId, 'certificates/READER'), as(token, { body })),

    getRegistrationCertificate: (token: string, orgId: string, verifierId: string) =>
      client.data<RegistrationCertificate>(
        'GET',
        org(orgId, pathOf`verifier/${verifierId}/registration-certificate`),
        as(token),
      ),
    putRegistrationCertificate: (
      token: string,
      orgId: string,
      verifierId: string,
      body: PutRegistrationCertificateBody,
    ) =>
      client.data<RegistrationCertificate>(
        'PUT',
        org(orgId, pathOf`verifier/${verifierId}/registration-certificate`),
        as(token, { body }),
      ),
    deleteRegistrationCertificate: (token: string, orgId: string, verifierId: string) =>
      client.data<RegistrationCertificate>(
        'DELETE',
        org(orgId, pathOf`verifier/${verifierId}/registration-certificate`),
        as(token),
      ),

    createPresentation: (token: string, orgId: string, verifierId: string, body: CreatePresentationBody) =>
      client.data<CreatedPresentation>('POST', org(orgId, 'presentation'), as(token, { query: { verifierId }, body })),
    createIntentPresentation: (
      token: string,
      orgId: string,
      query: { verifierId: string; ecosystemId: string },
      body: CreateIntentPresentationBody,
    ) =>
      client.data<CreatedPresentation>(
        'POST',
        org(orgId, 'intent-based-verification-presentation'),
        as(token, { query, body }),
      ),
    listSessions: (token: string, orgId: string, query: Omit<SessionListQuery, 'id'>, signal?: AbortSignal) =>
      client.data<PageOf<PresentationSession>>(
        'GET',
        org(orgId, 'verifier-presentation'),
        as(token, { query: { ...query }, ...(signal ? { signal } : {}) }),
      ),
    getSession: (token: string, orgId: string, sessionId: string) =>
      client.data<PresentationSession>(
        'GET',
        org(orgId, 'verifier-presentation'),
        as(token, { query: { id: sessionId } }),
      ),
    /** The session's server-sent events; the caller reads the body and ends it with `signal`. */
    openSessionEvents: (token: string, orgId: string, sessionId: string, signal: AbortSignal, lastEventId?: string) =>
      client.stream(org(orgId, 'verifier-presentation-events'), {
        token,
        query: { id: sessionId },
        signal,
        ...(lastEventId ? { headers: { 'last-event-id': lastEventId } } : {}),
      }),
    readPresentationResponse: (token: string, orgId: string, sessionId: string) =>
      client.data<PresentationResponse>(
        'GET',
        org(orgId, 'verifier-presentation-response'),
        as(token, { query: { verificationPresentationId: sessionId } }),
      ),
    listPresentationReads: (token: string, orgId: string, sessionId: string, page: PageQuery = {}) =>
      client.data<PageOf<PresentationRead>>(
        'GET',
        org(orgId, 'verifier-presentation-reads'),
        as(token, { query: { id: sessionId, ...page } }),
      ),

    getWebhook: (token: string, orgId: string, verifierId: string) =>
      client.data<Webhook>('GET', org(orgId, pathOf`verifier/${verifierId}/webhook`), as(token)),
    putWebhook: (token: string, orgId: string, verifierId: string, body: PutWebhookBody) =>
      // 201 with the secret when it creates the webhook; 200 without it when it changes one (shown once).
      client.data<Webhook | WebhookWithSecret>(
        'PUT',
        org(orgId, pathOf`verifier/${verifierId}/webhook`),
        as(token, { body }),
      ),
    deleteWebhook: (token: string, orgId: string, verifierId: string) =>
      client.data<Webhook>('DELETE', org(orgId, pathOf`verifier/${verifierId}/webhook`), as(token)),
    rotateWebhookSecret: (token: string, orgId: string, verifierId: string) =>
      client.data<WebhookWithSecret>(
        'POST',
        org(orgId, pathOf`verifier/${verifierId}/webhook/rotate-secret`),
        as(token),
      ),
    listWebhookDeliveries: (token: string, orgId: string, verifierId: string, page: PageQuery = {}) =>
      client.data<PageOf<WebhookDelivery>>(
        'GET',
        org(orgId, pathOf`verifier/${verifierId}/webhook/deliveries`),
        as(token, { query: { ...page } }),
      ),
    redeliverWebhookDelivery: (token: string, orgId: string, verifierId: string, deliveryId: string) =>
      client.data<WebhookDelivery>(
        'POST',
        org(orgId, pathOf`verifier/${verifierId}/webhook/deliveries/${deliveryId}/redeliver`),
        as(token),
      ),

    /** The platform CA request-signing leaves chain to (public). */
    getPlatformCa: () => client.text('GET', '/oid4vp/platform-ca.pem', { accept: 'application/x-pem-file, */*' }),
  };
}

export type VerifierApi = ReturnType<typeof createVerifierApi>;
