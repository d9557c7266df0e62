import type {
  DashboardSummary,
  Ecosystem,
  EcosystemCreateBody,
  EcosystemListEntry,
  EcosystemMember,
  EcosystemOrganisation,
  EcosystemRole,
  EcosystemTrustPolicy,
  Intent,
  IntentBody,
  IntentNotice,
  IntentNoticeBody,
  IntentTemplate,
  IntentTemplateCreateBody,
  IntentTemplateUpdateBody,
  Invitation,
  InvitationDecisionBody,
  InvitationStatus,
  Organisation,
  PageOf,
  TrustedEntity,
  TrustedEntityCreateBody,
  TrustedEntityFilter,
  TrustedEntityHistoryEntry,
  TrustedEntityPatchBody,
  TrustedEntityStatusBody,
  TrustListVisibility,
  TrustPolicy,
} from '@tessera/contracts';
import type { PageQuery } from './verifier-api.js';
import { pathOf, type ServiceClient } from './service-client.js';

/** The ecosystem service's API (services/ecosystem/README.md, Routes), one function per route. */
export function createEcosystemApi(client: ServiceClient) {
  return {
    getOrganisation: (token: string, orgId: string) =>
      client.data<Organisation>('GET', pathOf`/v1/organisations/${orgId}`, { token }),
    upsertOrganisation: (token: string, orgId: string, name: string) =>
      client.data<Organisation>('PUT', pathOf`/v1/organisations/${orgId}`, { token, body: { name } }),

    inviteLead: (token: string, email: string) =>
      client.data<Ecosystem>('POST', '/v1/invitations', { token, body: { email } }),
    listLeadInvitations: (token: string, query: PageQuery & { status?: InvitationStatus } = {}) =>
      client.data<PageOf<Invitation>>('GET', '/v1/invitations', { token, query: { ...query } }),
    getDashboardSummary: (token: string) =>
      client.data<DashboardSummary>('GET', '/v1/ecosystem/dashboard/summary', { token }),

    createEcosystem: (token: string, orgId: string, body: EcosystemCreateBody) =>
      client.data<Ecosystem>('POST', pathOf`/v1/ecosystem/${orgId}/create`, { token, body }),
    listEcosystems: (token: string, query: PageQuery & { orgId?: string } = {}) =>
      client.data<PageOf<EcosystemListEntry>>('GET', '/v1/ecosystem', { token, query: { ...query } }),
    getEcosystem: (token: string, ecosystemId: string) =>
      client.data<EcosystemListEntry>('GET', pathOf`/v1/ecosystem/${ecosystemId}`, { token }),
    getFeatureStatus: (token: string) => client.data<{ enabled: boolean }>('GET', '/v1/ecosystem/status', { token }),

    inviteMember: (token: string, ecosystemId: string, orgId: string) =>
      client.data<Invitation>('POST', '/v1/ecosystem/invite-member', { token, body: { ecosystemId, orgId } }),
    listMemberInvitations: (
      token: string,
      query: PageQuery & { role?: EcosystemRole; orgId?: string; ecosystemId?: string; status?: InvitationStatus },
    ) => client.data<PageOf<Invitation>>('GET', '/v1/ecosystem/invitations', { token, query: { ...query } }),
    answerInvitation: (token: string, body: InvitationDecisionBody) =>
      client.data<Invitation>('POST', '/v1/ecosystem/update-invitation-status', { token, body }),
    listMembers: (token: string, ecosystemId: string, page: PageQuery = {}) =>
      client.data<PageOf<EcosystemMember>>('GET', '/v1/ecosystem/members', {
        token,
        query: { ecosystemId, ...page },
      }),
    listEcosystemOrganisations: (token: string, ecosystemId: string, page: PageQuery = {}) =>
      client.data<PageOf<EcosystemOrganisation>>('GET', '/v1/ecosystem/get-ecosystem-orgs', {
        token,
        query: { ecosystemId, ...page },
      }),

    createIntent: (token: string, ecosystemId: string, body: IntentBody) =>
      client.data<Intent>('POST', pathOf`/v1/intent/ecosystem/${ecosystemId}`, { token, body }),
    listIntents: (token: string, ecosystemId: string, page: PageQuery = {}) =>
      client.data<PageOf<Intent>>('GET', pathOf`/v1/intent/ecosystem/${ecosystemId}`, { token, query: { ...page } }),
    getIntent: (token: string, intentId: string) =>
      client.data<Intent>('GET', pathOf`/v1/intent/${intentId}`, { token }),
    updateIntent: (token: string, intentId: string, body: IntentBody) =>
      client.data<Intent>('PUT', pathOf`/v1/intent/${intentId}`, { token, body }),
    deleteIntent: (token: string, intentId: string) =>
      client.data<Intent>('DELETE', pathOf`/v1/intent/${intentId}`, { token }),

    addIntentTemplate: (token: string, intentId: string, body: IntentTemplateCreateBody) =>
      client.data<IntentTemplate>('POST', pathOf`/v1/intent/${intentId}/template`, { token, body }),
    listIntentTemplates: (token: string, intentId: string) =>
      client.data<IntentTemplate[]>('GET', pathOf`/v1/intent/${intentId}/template`, { token }),
    updateIntentTemplate: (token: string, intentId: string, intentTemplateId: string, body: IntentTemplateUpdateBody) =>
      client.data<IntentTemplate>('PUT', pathOf`/v1/intent/${intentId}/template/${intentTemplateId}`, { token, body }),
    removeIntentTemplate: (token: string, intentId: string, intentTemplateId: string) =>
      client.data<IntentTemplate>('DELETE', pathOf`/v1/intent/${intentId}/template/${intentTemplateId}`, { token }),

    createNotice: (token: string, intentId: string, body: IntentNoticeBody) =>
      client.data<IntentNotice>('POST', pathOf`/v1/intent/${intentId}/notice`, { token, body }),
    updateNotice: (token: string, intentId: string, body: IntentNoticeBody) =>
      client.data<IntentNotice>('PUT', pathOf`/v1/intent/${intentId}/notice`, { token, body }),
    getNotice: (token: string, intentId: string, version?: number) =>
      client.data<IntentNotice>('GET', pathOf`/v1/intent/${intentId}/notice`, { token, query: { version } }),

    registerTrustedEntity: (token: string, ecosystemId: string, body: TrustedEntityCreateBody) =>
      client.data<TrustedEntity>('POST', pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities`, { token, body }),
    listTrustedEntities: (token: string, ecosystemId: string, query: PageQuery & TrustedEntityFilter = {}) =>
      client.data<PageOf<TrustedEntity>>('GET', pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities`, {
        token,
        query: { ...query },
      }),
    getTrustedEntity: (token: string, ecosystemId: string, entityId: string) =>
      client.data<TrustedEntity>('GET', pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}`, { token }),
    updateTrustedEntity: (token: string, ecosystemId: string, entityId: string, body: TrustedEntityPatchBody) =>
      client.data<TrustedEntity>('PATCH', pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}`, {
        token,
        body,
      }),
    addEntityCertificates: (token: string, ecosystemId: string, entityId: string, pems: string[]) =>
      client.data<TrustedEntity>(
        'POST',
        pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}/certificates`,
        { token, body: { certificates: pems.map((pem) => ({ pem })) } },
      ),
    retireEntityCertificate: (token: string, ecosystemId: string, entityId: string, certificateId: string) =>
      client.data<TrustedEntity>(
        'DELETE',
        pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}/certificates/${certificateId}`,
        { token },
      ),
    changeEntityStatus: (token: string, ecosystemId: string, entityId: string, body: TrustedEntityStatusBody) =>
      client.data<TrustedEntity>('POST', pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}/status`, {
        token,
        body,
      }),
    listEntityHistory: (token: string, ecosystemId: string, entityId: string, page: PageQuery = {}) =>
      client.data<PageOf<TrustedEntityHistoryEntry>>(
        'GET',
        pathOf`/v1/ecosystem/${ecosystemId}/trusted-entities/${entityId}/history`,
        { token, query: { ...page } },
      ),

    getTrustPolicy: (token: string, ecosystemId: string) =>
      client.data<EcosystemTrustPolicy>('GET', pathOf`/v1/ecosystem/${ecosystemId}/trust-policy`, { token }),
    setTrustPolicy: (token: string, ecosystemId: string, policy: TrustPolicy) =>
      client.data<EcosystemTrustPolicy>('PUT', pathOf`/v1/ecosystem/${ecosystemId}/trust-policy`, {
        token,
        body: { policy },
      }),
    getTrustListVisibility: (token: string, ecosystemId: string) =>
      client.data<TrustListVisibility>('GET', pathOf`/v1/ecosystem/${ecosystemId}/trust-list/visibility`, { token }),
    setTrustListVisibility: (token: string, ecosystemId: string, visible: boolean) =>
      client.data<TrustListVisibility>('PUT', pathOf`/v1/ecosystem/${ecosystemId}/trust-list/visibility`, {
        token,
        body: { public: visible },
      }),
    /** The signed list (compact JWS), as a member reads it. */
    getSignedTrustList: (token: string, ecosystemId: string) =>
      client.text('GET', pathOf`/v1/ecosystem/${ecosystemId}/trust-list`, {
        token,
        accept: 'application/trustlist+jwt',
      }),
  };
}

export type EcosystemApi = ReturnType<typeof createEcosystemApi>;
