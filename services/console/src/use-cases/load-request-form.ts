import type { VerificationTemplate, Verifier } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadRequestFormDeps {
  verifier: Pick<VerifierApi, 'listVerifiers' | 'listTemplates'>;
  ecosystem: Pick<EcosystemApi, 'listEcosystems' | 'listIntents'>;
}

export interface IntentChoice {
  ecosystemId: string;
  ecosystemName: string;
  intent: string;
}

export interface RequestForm {
  verifiers: Verifier[];
  templates: VerificationTemplate[];
  /** The intents of the ecosystems the organisation belongs to. */
  intents: IntentChoice[];
  /** The ecosystems the organisation belongs to: a direct request may be verified against one's trust list. */
  ecosystems: Array<{ id: string; name: string }>;
}

/** What a new presentation request can be made of: a verifier, and a template's query or an ecosystem's intent. */
export async function loadRequestForm(
  deps: LoadRequestFormDeps,
  input: { token: string; orgId: string },
): Promise<ServiceResult<RequestForm>> {
  const { token, orgId } = input;
  const [verifiers, templates, ecosystems] = await Promise.all([
    deps.verifier.listVerifiers(token, orgId, { pageSize: 100 }),
    deps.verifier.listTemplates(token, orgId, { pageSize: 100 }),
    deps.ecosystem.listEcosystems(token, { orgId, pageSize: 100 }),
  ]);
  if (!verifiers.ok) return verifiers;
  if (!templates.ok) return templates;
  // An organisation in no ecosystem (or the ecosystem feature off) has no intents to offer.
  const memberOf = ecosystems.ok ? ecosystems.value.data : [];
  const intentPages = await Promise.all(
    memberOf.map((ecosystem) => deps.ecosystem.listIntents(token, ecosystem.id, { pageSize: 100 })),
  );
  return succeeded({
    verifiers: verifiers.value.data,
    templates: templates.value.data,
    ecosystems: memberOf.map((ecosystem) => ({ id: ecosystem.id, name: ecosystem.name })),
    intents: intentPages.flatMap((page, index) =>
      page.ok
        ? page.value.data.map((intent) => ({
            ecosystemId: memberOf[index]!.id,
            ecosystemName: memberOf[index]!.name,
            intent: intent.name,
          }))
        : [],
    ),
  });
}
