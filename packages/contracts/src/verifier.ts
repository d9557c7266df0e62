import { Type, type Static } from 'typebox';
import { OverAskingPolicySchema } from './relying-party-identity.js';

// A verifier's settings as the verifier's management API (VERIFIER.md) takes and returns them.

/** How a verification template's request objects are signed. */
export const SignerOptionSchema = Type.Union([
  Type.Literal('DID'),
  Type.Literal('X509_P256'),
  Type.Literal('X509_ED25519'),
]);
export type SignerOption = Static<typeof SignerOptionSchema>;

/** Display data a wallet shows to the holder; copied into the request object's `client_metadata`. */
export const ClientMetadataSchema = Type.Object(
  {
    client_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    logo_uri: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, pattern: '^(https?:|data:image/)' })),
  },
  { additionalProperties: false },
);
export type ClientMetadata = Static<typeof ClientMetadataSchema>;

/** The organisation's own identifier of a verifier: safe in URLs and query strings. */
export const VerifierIdSchema = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$',
});

/**
 * Settings of a verifier beyond its display data (issue 25). `overAskingPolicy`: what a session
 * or template asking for more than the verifier's registration certificate registered gets —
 * `refuse` (400 OVER_ASKING, the default) or `warn` (created, `overAsking` lists the paths); no
 * effect without a registration certificate. `strictHaip`: sessions must meet HAIP 1.0 —
 * encrypted response modes (`direct_post.jwt`, `dc_api.jwt`) and requests signed with the P-256
 * access certificate under `x509_hash` (400 NOT_HAIP_COMPLIANT otherwise); default false.
 * On PUT an absent setting keeps its current value (unlike `clientMetadata`, which an absent
 * value clears), so a client written before these settings existed cannot undo them.
 */
const VerifierSettingsProperties = {
  overAskingPolicy: Type.Optional(OverAskingPolicySchema),
  strictHaip: Type.Optional(Type.Boolean()),
};

export const CreateVerifierBodySchema = Type.Object(
  { verifierId: VerifierIdSchema, clientMetadata: Type.Optional(ClientMetadataSchema), ...VerifierSettingsProperties },
  { additionalProperties: false },
);
export type CreateVerifierBody = Static<typeof CreateVerifierBodySchema>;

/**
 * PUT replaces `clientMetadata` (absent clears it); `verifierId` cannot change.
 * The API documents describe this body as "Verifier", so clients generated from
 * them send `verifierId` too: accepted when it equals the path's, otherwise 400
 * VERIFIER_ID_IMMUTABLE (a string here, not the id pattern, so any other value
 * gets that code rather than a pattern failure).
 */
export const UpdateVerifierBodySchema = Type.Object(
  {
    verifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientMetadata: Type.Optional(ClientMetadataSchema),
    ...VerifierSettingsProperties,
  },
  { additionalProperties: false },
);
export type UpdateVerifierBody = Static<typeof UpdateVerifierBodySchema>;

/**
 * PATCH changes only the fields it names; an absent field keeps its value, so two people
 * changing different fields do not undo each other. `clientMetadata` is one value: it replaces
 * the display data as a whole (not merged member by member), `null` removes it. At least one
 * field; `verifierId`, when repeated, must equal the path's (400 VERIFIER_ID_IMMUTABLE).
 */
export const PatchVerifierBodySchema = Type.Object(
  {
    verifierId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientMetadata: Type.Optional(Type.Union([ClientMetadataSchema, Type.Null()])),
    ...VerifierSettingsProperties,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchVerifierBody = Static<typeof PatchVerifierBodySchema>;

export const VerifierSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  verifierId: Type.String(),
  clientMetadata: Type.Optional(ClientMetadataSchema),
  overAskingPolicy: OverAskingPolicySchema,
  strictHaip: Type.Boolean(),
  createDateTime: Type.String({ format: 'date-time' }),
  lastChangedDateTime: Type.String({ format: 'date-time' }),
});
export type Verifier = Static<typeof VerifierSchema>;
