import { Type, type Static } from 'typebox';

/** Media type of a Status List Token in JWT form (draft-ietf-oauth-status-list, Status List Response). */
export const STATUS_LIST_MEDIA_TYPE = 'application/statuslist+jwt';
/** Media type of a Status List Token in CWT form: the raw tagged COSE_Sign1 bytes. */
export const STATUS_LIST_CWT_MEDIA_TYPE = 'application/statuslist+cwt';

/** The two forms a status list token takes, each with its media type. */
export const STATUS_LIST_FORMATS = ['jwt', 'cwt'] as const;
export type StatusListFormat = (typeof STATUS_LIST_FORMATS)[number];
export const STATUS_LIST_MEDIA_TYPES: Readonly<Record<StatusListFormat, string>> = {
  jwt: STATUS_LIST_MEDIA_TYPE,
  cwt: STATUS_LIST_CWT_MEDIA_TYPE,
};

/**
 * Labels of a Status List Token in CWT form (draft-ietf-oauth-status-list, Status List
 * Token in CWT Format; RFC 8392 claim keys; RFC 9052/9596/9360 header labels). The
 * token is a COSE_Sign1 (CBOR tag 18) whose protected header carries `alg` and `typ`
 * and whose payload is the CWT claims map; `status_list`'s own keys are text
 * (`bits`, `lst`, `aggregation_uri`).
 */
export const StatusListCwt = {
  /** CBOR tag of COSE_Sign1_Tagged. */
  COSE_SIGN1_TAG: 18,
  /** The CWT tag the draft forbids around a Status List Token. */
  CWT_TAG: 61,
  header: { ALG: 1, TYP: 16, KID: 4, X5CHAIN: 33 },
  claim: { SUB: 2, EXP: 4, IAT: 6, STATUS_LIST: 65533, TTL: 65534 },
} as const;

/** Status list bits per entry allowed by draft-ietf-oauth-status-list. */
export const STATUS_LIST_BITS = [1, 2, 4, 8] as const;
export type StatusListBits = (typeof STATUS_LIST_BITS)[number];

/** Status values of draft-ietf-oauth-status-list (others are application-specific or reserved). */
export const StatusValue = { VALID: 0x00, INVALID: 0x01, SUSPENDED: 0x02 } as const;

/** UUID v4, either case (stored in canonical lowercase). */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

const CwtField = (description: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      description: `${description}: base64url (no padding) of the tagged COSE_Sign1 (tag 18) bytes, typ application/statuslist+cwt. Send either jwt or cwt.`,
    }),
  );

// The list's form is the field it is sent in: exactly one of `jwt` and `cwt` (the
// service answers 400 VALIDATION_FAILED for neither or both, with a message saying so).
export const CreateStatusListBodySchema = Type.Object(
  {
    id: Type.String({
      pattern: UUID_V4_PATTERN,
      description: 'UUID v4 chosen by the client',
      examples: ['2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b'],
    }),
    jwt: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'compact JWS of the issuer-signed status list token (typ statuslist+jwt). Send either jwt or cwt.',
      }),
    ),
    cwt: CwtField('the issuer-signed status list token in CWT form'),
  },
  { additionalProperties: false, description: 'A new list: its id and its token, as jwt or as cwt.' },
);
export type CreateStatusListBody = Static<typeof CreateStatusListBodySchema>;

export const UpdateStatusListBodySchema = Type.Object(
  {
    jwt: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'compact JWS of the updated status list token (a list created with jwt)',
      }),
    ),
    cwt: CwtField('the updated status list token (a list created with cwt)'),
  },
  {
    additionalProperties: false,
    description: 'The newer token, in the form the list was created in (400 FORMAT_MISMATCH otherwise).',
  },
);
export type UpdateStatusListBody = Static<typeof UpdateStatusListBodySchema>;

/** What POST and PATCH answer: the stored list's metadata, never the JWT itself. */
export const StatusListRecordSchema = Type.Object({
  id: Type.String(),
  bits: Type.Integer(),
  sub: Type.String(),
  iat: Type.Integer(),
  exp: Type.Optional(Type.Integer()),
  ttl: Type.Optional(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type StatusListRecord = Static<typeof StatusListRecordSchema>;

/**
 * `GET /status-lists/aggregation` (draft-ietf-oauth-status-list, Status List Aggregation):
 * the URI (`sub`) of every list the service holds, as `application/json`.
 */
export const StatusListAggregationSchema = Type.Object({
  status_lists: Type.Array(Type.String({ description: 'URI of a Status List Token (its sub)' })),
});
export type StatusListAggregation = Static<typeof StatusListAggregationSchema>;

/**
 * One entry of `GET /status-lists/:list_id/versions`: the current token or a kept one,
 * newest first. Open one with `GET /status-lists/:list_id?time=<iat>`.
 */
export const StatusListVersionSchema = Type.Object({
  current: Type.Boolean({ description: 'true for the token the list holds now (the first entry)' }),
  iat: Type.Integer({ description: "the token's iat (unix seconds)" }),
  exp: Type.Optional(Type.Integer({ description: "the token's exp, when it has one" })),
  ttl: Type.Optional(Type.Integer({ description: "the token's ttl, when it has one" })),
  etag: Type.String({ description: 'the ETag the token is served with' }),
  storedAt: Type.String({ format: 'date-time', description: 'when the token became the current one' }),
  replacedAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'when a newer token replaced it (absent for the current one)' }),
  ),
});
export type StatusListVersion = Static<typeof StatusListVersionSchema>;
