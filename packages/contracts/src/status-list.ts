import { Type, type Static } from 'typebox';

export const STATUS_LIST_MEDIA_TYPE = 'application/statuslist+jwt';

/** Status list bits per entry allowed by draft-ietf-oauth-status-list. */
export const STATUS_LIST_BITS = [1, 2, 4, 8] as const;
export type StatusListBits = (typeof STATUS_LIST_BITS)[number];

/** Status values of draft-ietf-oauth-status-list (others are application-specific or reserved). */
export const StatusValue = { VALID: 0x00, INVALID: 0x01, SUSPENDED: 0x02 } as const;

/** UUID v4, either case (stored in canonical lowercase). */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

export const CreateStatusListBodySchema = Type.Object(
  {
    id: Type.String({
      pattern: UUID_V4_PATTERN,
      description: 'UUID v4 chosen by the client',
      examples: ['2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b'],
    }),
    jwt: Type.String({
      minLength: 1,
      description: 'compact JWS of the issuer-signed status list token (typ statuslist+jwt)',
    }),
  },
  { additionalProperties: false },
);
export type CreateStatusListBody = Static<typeof CreateStatusListBodySchema>;

export const UpdateStatusListBodySchema = Type.Object(
  {
    jwt: Type.String({ minLength: 1, description: 'compact JWS of the updated status list token' }),
  },
  { additionalProperties: false },
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
