import type {
  ClientIdPrefix,
  SignerOption,
  VerificationTemplate,
  VerificationTemplateSummary,
} from '@tessera/contracts';
import type { TemplateRow } from '../db/schema.js';

export function toVerificationTemplate(row: TemplateRow): VerificationTemplate {
  return {
    id: row.id,
    name: row.name,
    templateJson: row.templateJson,
    signerOption: row.signerOption as SignerOption,
    ...(row.clientIdPrefix ? { clientIdPrefix: row.clientIdPrefix as ClientIdPrefix } : {}),
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.updatedAt.toISOString(),
  };
}

/** The reply of `verifier.v1.verification-template.get`. */
export function toVerificationTemplateSummary(row: TemplateRow): VerificationTemplateSummary {
  return { id: row.id, orgId: row.orgId, name: row.name, signerOption: row.signerOption as SignerOption };
}
