import { Type } from 'typebox';
import { PutRegistrationCertificateBodySchema, RegistrationCertificateSchema } from '@tessera/contracts';
import { type App, envelope, envelopeOf, routeSchema } from '@tessera/service-kit';
import { toRegistrationCertificate } from '../presenters/registration-certificate.js';
import { deleteRegistrationCertificate } from '../use-cases/delete-registration-certificate.js';
import {
  getRegistrationCertificate,
  type RegistrationCertificateDeps,
} from '../use-cases/get-registration-certificate.js';
import {
  putRegistrationCertificate,
  type PutRegistrationCertificateDeps,
} from '../use-cases/put-registration-certificate.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';
import { requireIdentityManager } from './management.js';

// An unknown verifierId is a 404 from the use case, as on the verifier routes.
const VerifierParamsSchema = Type.Object({
  ...OrgParamsSchema.properties,
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
});
const tags = ['registration certificates'];
const path = '/verifier/:verifierId/registration-certificate';

export type RegistrationCertificateRouteDeps = PutRegistrationCertificateDeps & RegistrationCertificateDeps;

export function registerRegistrationCertificateRoutes(app: App, deps: RegistrationCertificateRouteDeps): void {
  app.put(
    path,
    {
      onRequest: requireIdentityManager,
      schema: routeSchema(
        {
          summary: "Store the verifier's registration certificate (ETSI TS 119 475), checked first",
          description:
            'Owners and admins. A JWT of typ rc-wrp+jwt (TS 119 475 V1.2.1 or V1.1.1) or rc-rp+jwt, its x5c chain valid to a registrar anchor (REGISTRAR_TRUST_ANCHORS_FILE or the organisation’s trust anchors of purpose registrar), signed by it, valid now, its relying party (`sub`) the organizationIdentifier of the P-256 access certificate in force. Refused: 400 REGISTRATION_CERTIFICATE_INVALID, the first details entry `<REASON>: …` (MALFORMED, UNSUPPORTED_TYPE, INVALID_HEADER, UNTRUSTED, SIGNATURE_INVALID, INVALID_PAYLOAD, NOT_YET_VALID, EXPIRED, RELYING_PARTY_MISMATCH). Stored: every request object of the verifier carries it in verifier_info, and its sessions and templates are judged against what it registered (overAskingPolicy).',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        {
          params: VerifierParamsSchema,
          body: PutRegistrationCertificateBodySchema,
          response: { 200: envelopeOf(RegistrationCertificateSchema) },
        },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Registration certificate stored.',
        toRegistrationCertificate(
          await putRegistrationCertificate(deps, {
            ...request.params,
            registrationCertificate: request.body.registrationCertificate,
          }),
        ),
      ),
  );

  app.get(
    path,
    {
      schema: routeSchema(
        {
          summary: "The verifier's registration certificate: what it registered, its status",
          description:
            '`status` is `expiring` with less than a day left and `expired` once past `notAfter` (no longer sent, nothing judged against it); `boundToAccessCertificate` is false once the P-256 access certificate in force carries another identifier.',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: VerifierParamsSchema, response: { 200: envelopeOf(RegistrationCertificateSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Registration certificate.',
        toRegistrationCertificate(await getRegistrationCertificate(deps, request.params)),
      ),
  );

  app.delete(
    path,
    {
      onRequest: requireIdentityManager,
      schema: routeSchema(
        {
          summary: "Remove the verifier's registration certificate (its next requests carry no verifier_info)",
          description: 'Owners and admins. Answers what was removed.',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        { params: VerifierParamsSchema, response: { 200: envelopeOf(RegistrationCertificateSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Registration certificate removed.',
        toRegistrationCertificate(await deleteRegistrationCertificate(deps, request.params)),
      ),
  );
}
