import type { IntentNotice } from '@tessera/contracts';

/** Vocabularies of the JSON-LD form (Data Privacy Vocabulary, its personal data extension, Dublin Core). */
export const NOTICE_CONTEXT = {
  dpv: 'https://w3id.org/dpv#',
  pd: 'https://w3id.org/dpv/pd#',
  dct: 'http://purl.org/dc/terms/',
} as const;

/**
 * The notice as an ISO/IEC TS 27560 consent notice in JSON-LD with DPV terms
 * (ECOSYSTEM.md, Intent notices). Each version has its own `@id`.
 */
export function toNoticeJsonLd(notice: IntentNotice): Record<string, unknown> {
  const document: Record<string, unknown> = {
    '@context': NOTICE_CONTEXT,
    '@id': `urn:uuid:${notice.id}#v${notice.version}`,
    '@type': 'dpv:ConsentNotice',
    'dct:title': notice.title,
    ...(notice.description ? { 'dct:description': notice.description } : {}),
    'dct:language': notice.language ?? 'en',
    'dct:created': notice.createDateTime,
    'dct:hasVersion': String(notice.version),
    'dpv:hasDataController': {
      '@type': 'dpv:DataController',
      'dpv:hasName': notice.controller.name,
      'dpv:hasContact': notice.controller.contact,
      // The controller is identified by its web address when it has one.
      ...(notice.controller.url ? { '@id': notice.controller.url } : {}),
    },
    'dpv:hasPurpose': notice.purposes.map((purpose) => ({ '@id': purpose.id, 'dct:description': purpose.description })),
    'dpv:hasPersonalData': notice.personalDataCategories.map((term) => ({ '@id': term })),
    'dpv:hasProcessing': notice.processingOperations.map((term) => ({ '@id': term })),
    'dpv:hasLegalBasis': { '@id': notice.legalBasis },
    'dpv:hasStorageCondition': { '@type': 'dpv:StorageDuration', 'dpv:hasDuration': notice.retention.duration },
  };
  if (notice.recipients?.length) {
    document['dpv:hasRecipient'] = notice.recipients.map((recipient) => ({
      '@type': 'dpv:Recipient',
      'dpv:hasName': recipient.name,
      'dct:description': recipient.role,
    }));
  }
  if (notice.storageLocations?.length) {
    document['@context'] = { ...NOTICE_CONTEXT, loc: 'https://w3id.org/dpv/loc#' };
    document['dpv:hasLocation'] = notice.storageLocations.map((country) => ({ '@id': `loc:${country}` }));
  }
  if (notice.rightsUrl) document['dpv:hasRight'] = { '@id': notice.rightsUrl };
  if (notice.withdrawalMethod) document['dpv:hasWithdrawalMethod'] = notice.withdrawalMethod;
  if (notice.noticeUrl) document['dct:source'] = notice.noticeUrl;
  return document;
}
