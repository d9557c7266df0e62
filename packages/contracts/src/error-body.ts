import { Type, type Static } from 'typebox';

/** One problem of a failed validation: `path` is a JSON Pointer into the request part named. */
export const ErrorDetailSchema = Type.Object({
  path: Type.String(),
  message: Type.String(),
});
export type ErrorDetail = Static<typeof ErrorDetailSchema>;

/** The platform error body, answered by every service for every error (ARCHITECTURE.md). */
export const ErrorBodySchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String({ description: 'HTTP reason phrase' }),
    code: Type.String({ description: 'stable SCREAMING_SNAKE machine code' }),
    message: Type.String({ description: 'a sentence a person can act on' }),
    details: Type.Optional(Type.Array(ErrorDetailSchema)),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** Errors of the public OID4VP endpoints, shaped as OAuth 2.0 errors. */
export const OAuthErrorBodySchema = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
});
export type OAuthErrorBody = Static<typeof OAuthErrorBodySchema>;
