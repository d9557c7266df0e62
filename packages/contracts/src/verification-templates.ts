import { Type, type Static } from 'typebox';
import { OverAskingPathSchema } from './relying-party-identity.js';
import { SignerOptionSchema, VerifierIdSchema } from './verifier.js';

// Verification templates and how their request objects are signed (VERIFIER.md). The DCQL
// query itself is typed loosely here: the service validates it with the `dcql` library and
// answers 400 INVALID_DCQL with a JSON Pointer per problem.

/** How the request object's `client_id` is derived from an X.509 leaf (OpenID4VP 1.0 §5.9.3). */
export const ClientIdPrefixSchema = Type.Union([Type.Literal('x509_hash'), Type.Literal('x509_san_dns')]);
export type ClientIdPrefix = Static<typeof ClientIdPrefixSchema>;

export const RequestSignerSchema = Type.Object(
  { method: SignerOptionSchema, clientIdPrefix: Type.Optional(ClientIdPrefixSchema) },
  { additionalProperties: false },
);
export type RequestSigner = Static<typeof RequestSignerSchema>;

/** A DCQL query with the spec's `combine` field; validated by the service, not by the schema. */
export const DcqlQueryInputSchema = Type.Object(
  {},
  { additionalProperties: true, description: 'DCQL query plus `combine: "all"`' },
);

export const TemplateJsonSchema = Type.Object(
  { dcql: Type.Object({ query: DcqlQueryInputSchema }, { additionalProperties: false }) },
  { additionalProperties: false },
);

export const VerificationTemplateBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    templateJson: TemplateJsonSchema,
    signerOption: SignerOptionSchema,
    clientIdPrefix: Type.Optional(ClientIdPrefixSchema),
    /**
     * The organisation's verifier this template is for: its query is then judged when saved
     * against that verifier's registration certificate (400 OVER_ASKING under `refuse`).
     * Sessions are judged against their own verifier whatever the template names.
     */
    verifierId: Type.Optional(VerifierIdSchema),
  },
  { additionalProperties: false },
);
export type VerificationTemplateBody = Static<typeof VerificationTemplateBodySchema>;

export const VerificationTemplateSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  templateJson: TemplateJsonSchema,
  signerOption: SignerOptionSchema,
  clientIdPrefix: Type.Optional(ClientIdPrefixSchema),
  verifierId: Type.Optional(Type.String()),
  /** Save answers only, under the `warn` policy: what the query asks beyond the named verifier's registration. */
  overAsking: Type.Optional(Type.Array(OverAskingPathSchema)),
  createDateTime: Type.String({ format: 'date-time' }),
  lastChangedDateTime: Type.String({ format: 'date-time' }),
});
export type VerificationTemplate = Static<typeof VerificationTemplateSchema>;
