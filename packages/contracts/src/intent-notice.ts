import { Type, type Static } from 'typebox';

/**
 * Consent notice of an intent, after ISO/IEC TS 27560 with Data Privacy Vocabulary
 * terms (ECOSYSTEM.md). Body of create and update.
 */
export const IntentNoticeBodySchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    language: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
        default: 'en',
        description: 'BCP 47 language tag',
      }),
    ),
    controller: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        contact: Type.String({ minLength: 1, maxLength: 320, description: 'e-mail address or URL' }),
        url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
      },
      { additionalProperties: false },
    ),
    purposes: Type.Array(
      Type.Object(
        {
          id: Type.String({
            pattern: '^[a-z][a-z0-9-]*:[A-Za-z0-9]+$',
            description: 'DPV purpose term, e.g. dpv:ServiceProvision',
          }),
          description: Type.String({ minLength: 1, maxLength: 1000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
    personalDataCategories: Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*:[A-Za-z0-9]+$' }), {
      minItems: 1,
      maxItems: 100,
    }),
    processingOperations: Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*:[A-Za-z0-9]+$' }), { maxItems: 50 }),
    legalBasis: Type.String({
      pattern: '^[a-z][a-z0-9-]*:[A-Za-z0-9]+$',
      description: 'DPV legal basis term, e.g. dpv:Consent',
    }),
    retention: Type.Object(
      {
        duration: Type.String({
          pattern: '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$',
          description: 'ISO 8601 duration',
        }),
      },
      { additionalProperties: false },
    ),
    recipients: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 200 }), role: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    storageLocations: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }), { maxItems: 50 }),
    ),
    rightsUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    withdrawalMethod: Type.Optional(Type.String({ maxLength: 1000 })),
    noticeUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type IntentNoticeBody = Static<typeof IntentNoticeBodySchema>;

/**
 * A stored notice version, as `GET /v1/intent/{id}/notice` returns it. One object, not an
 * intersection: the body's `additionalProperties: false` would reject the version fields.
 */
export const IntentNoticeSchema = Type.Object(
  {
    id: Type.String(),
    intentId: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    createdBy: Type.String(),
    createDateTime: Type.String({ format: 'date-time' }),
    ...IntentNoticeBodySchema.properties,
  },
  { additionalProperties: false },
);
export type IntentNotice = Static<typeof IntentNoticeSchema>;
