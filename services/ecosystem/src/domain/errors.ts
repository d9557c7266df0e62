// Refusals that several use cases decide, each with its stable code and a sentence a
// person can act on (ECOSYSTEM.md). A refusal only one use case makes lives there.
import { ErrorCode } from '@tessera/contracts';
import { conflict, forbidden, notFound } from '@tessera/service-kit';

export const ecosystemDisabled = () =>
  forbidden('The ecosystem feature is disabled on this platform.', ErrorCode.ECOSYSTEM_DISABLED);

export const ecosystemNotFound = () => notFound('No such ecosystem.', ErrorCode.ECOSYSTEM_NOT_FOUND);

export const intentNotFound = () => notFound('No such intent.', ErrorCode.INTENT_NOT_FOUND);

export const intentNameTaken = (name: string) =>
  conflict(ErrorCode.INTENT_NAME_TAKEN, `This ecosystem has an intent named "${name}" already (names ignore case).`);

export const intentTemplateNotFound = () => notFound('No such intent template.', ErrorCode.INTENT_TEMPLATE_NOT_FOUND);

export const intentTemplateExists = () =>
  conflict(
    ErrorCode.INTENT_TEMPLATE_EXISTS,
    'This intent has a template for that role and scope already (one ecosystem-wide, one per organisation override).',
  );

export const invitationPending = (what: string) =>
  conflict(ErrorCode.INVITATION_PENDING, `${what} has a pending invitation already.`);

export const noticeNotFound = (version?: number) =>
  notFound(version ? `This intent's notice has no version ${version}.` : 'This intent has no notice.');

export const trustedEntityNotFound = () =>
  notFound('No such trusted entity in this ecosystem.', ErrorCode.TRUSTED_ENTITY_NOT_FOUND);

export const certificateNotFound = () =>
  notFound(
    'This trusted entity has no such current certificate (unknown, or retired already).',
    ErrorCode.CERTIFICATE_NOT_FOUND,
  );
