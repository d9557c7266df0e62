import type { VerificationTemplate, Verifier } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadTemplateEditorDeps {
  verifier: Pick<VerifierApi, 'getTemplate' | 'listVerifiers'>;
}

export interface TemplateEditor {
  /** Absent for a new template. */
  template?: VerificationTemplate;
  /** The organisation's verifiers, to preview the request as each would send it. */
  verifiers: Verifier[];
}

/** The template editor: the template (when editing one) and the verifiers a preview can take the display data of. */
export async function loadTemplateEditor(
  deps: LoadTemplateEditorDeps,
  input: { token: string; orgId: string; templateId?: string },
): Promise<ServiceResult<TemplateEditor>> {
  const [template, verifiers] = await Promise.all([
    input.templateId ? deps.verifier.getTemplate(input.token, input.orgId, input.templateId) : undefined,
    deps.verifier.listVerifiers(input.token, input.orgId, { pageSize: 100 }),
  ]);
  if (template && !template.ok) return template;
  if (!verifiers.ok) return verifiers;
  return succeeded({ ...(template ? { template: template.value } : {}), verifiers: verifiers.value.data });
}
