import type {
  ClientIdPrefix,
  OverAskingPath,
  SignerOption,
  VerificationTemplate,
  VerificationTemplateSummary,
} from '@tessera/contracts';
import type { TemplateRow } from '../db/schema.js';

/** A template; `verifierId` when it names a verifier, `overAsking` on a save answer under the `warn` policy. */
export function toVerificationTemplate(
  row: TemplateRow & { verifierId?: string | null; overAsking?: OverAskingPath[] },
): VerificationTemplate {
  return {
    id: row.id,
    name: row.name,
    templateJson: row.templateJson,
    signerOption: row.signerOption as SignerOption,
    ...(row.clientIdPrefix ? { clientIdPrefix: row.clientIdPrefix as ClientIdPrefix } : {}),
    ...(row.verifierId ? { verifierId: row.verifierId } : {}),
    ...(row.overAsking ? { overAsking: row.overAsking } : {}),
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.updatedAt.toISOString(),
  };
}

/** The reply of `verifier.v1.verification-template.get`. */
export function toVerificationTemplateSummary(row: TemplateRow): VerificationTemplateSummary {
  return { id: row.id, orgId: row.orgId, name: row.name, signerOption: row.signerOption as SignerOption };
}
