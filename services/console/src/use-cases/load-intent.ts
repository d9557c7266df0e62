import type { EcosystemListEntry, Intent, IntentNotice, IntentTemplate } from '@tessera/contracts';
import { failed, succeeded, type ServiceResult } from '../domain/service-problem.js';
import { can, type SignedInUser } from '../domain/signed-in-user.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';
import type { VerifierApi } from '../network/verifier-api.js';
import { findEcosystem } from './steps/find-ecosystem.js';

export interface LoadIntentDeps {
  ecosystem: Pick<EcosystemApi, 'getIntent' | 'listIntentTemplates' | 'getNotice' | 'getEcosystem'>;
  verifier: Pick<VerifierApi, 'listTemplates'>;
}

/** A verification template the user could map, from one of their organisations. */
export interface TemplateChoice {
  id: string;
  name: string;
  orgId: string;
}

export interface IntentView {
  intent: Intent;
  ecosystem: EcosystemListEntry;
  lead: boolean;
  templates: IntentTemplate[];
  /** The version shown (the latest unless one was asked for); undefined while the intent has no notice. */
  notice?: IntentNotice;
  /** The newest version number (the list of versions is 1 … this). */
  latestNoticeVersion?: number;
  templateChoices: TemplateChoice[];
}

/** An intent with its templates per role and its notice, as the lead edits it or a member reads it. */
export async function loadIntent(
  deps: LoadIntentDeps,
  input: { token: string; user: SignedInUser; intentId: string; noticeVersion?: number },
): Promise<ServiceResult<IntentView>> {
  const { token, intentId } = input;
  const [intent, templates, latest] = await Promise.all([
    deps.ecosystem.getIntent(token, intentId),
    deps.ecosystem.listIntentTemplates(token, intentId),
    deps.ecosystem.getNotice(token, intentId),
  ]);
  if (!intent.ok) return intent;
  if (!templates.ok) return templates;
  const hasNotice = latest.ok;
  if (!latest.ok && latest.problem.status !== 404) return latest;
  const shown =
    hasNotice && input.noticeVersion && input.noticeVersion !== latest.value.version
      ? await deps.ecosystem.getNotice(token, intentId, input.noticeVersion)
      : latest;
  if (!shown.ok && hasNotice) return shown;
  const ecosystem = await findEcosystem(deps.ecosystem, token, intent.value.ecosystemId);
  if (!ecosystem.ok) return ecosystem;
  const lead = ecosystem.value.role === 'Ecosystem Lead';
  const templateChoices = lead ? await verificationTemplatesOf(deps, token, input.user) : [];
  if (!templateChoices)
    return failed({
      service: 'verifier',
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The verifier service is unavailable; try again shortly.',
    });
  return succeeded({
    intent: intent.value,
    ecosystem: ecosystem.value,
    lead,
    templates: templates.value,
    ...(shown.ok ? { notice: shown.value } : {}),
    ...(hasNotice ? { latestNoticeVersion: latest.value.version } : {}),
    templateChoices,
  });
}

/** The verification templates of the organisations where the user manages verification (for the template picker). */
async function verificationTemplatesOf(
  deps: LoadIntentDeps,
  token: string,
  user: SignedInUser,
): Promise<TemplateChoice[] | undefined> {
  const organisations = Object.entries(user.orgRoles)
    .filter(([, roles]) => can.manageVerification(roles))
    .map(([orgId]) => orgId);
  const pages = await Promise.all(
    organisations.map((orgId) => deps.verifier.listTemplates(token, orgId, { pageSize: 100 })),
  );
  if (pages.some((page) => !page.ok && page.problem.status >= 500)) return undefined;
  return pages.flatMap((page, index) =>
    page.ok
      ? page.value.data.map((template) => ({ id: template.id, name: template.name, orgId: organisations[index]! }))
      : [],
  );
}
