import type { VerificationTemplateBody } from '@tessera/contracts';
import type { TemplateValues } from '../../db/templates.js';
import { requireValidDcqlQuery } from '../../domain/dcql.js';

// Shared step of create and replace (POST/PUT verification-template).

/** The values a template body stores once its query is valid (400 INVALID_DCQL otherwise): the query as given, `combine` kept. */
export function readTemplateBody(body: VerificationTemplateBody): TemplateValues {
  requireValidDcqlQuery({ query: body.templateJson.dcql.query, pointer: '/templateJson/dcql/query' });
  return {
    name: body.name,
    templateJson: body.templateJson as TemplateValues['templateJson'],
    signerOption: body.signerOption,
    clientIdPrefix: body.clientIdPrefix ?? null,
  };
}
