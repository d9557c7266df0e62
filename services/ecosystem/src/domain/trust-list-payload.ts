import type { AllowedCredentialType, TrustedEntityStatus } from '@tessera/contracts';
import { readPemBlocks } from '@tessera/service-kit';
import type { TrustListContent, TrustListContentCertificate, TrustListContentEntity } from './trust-list-content.js';
import {
  ALLOWED_CREDENTIAL_TYPES_EXTENSION,
  LOTE_TYPE,
  LOTE_VERSION_IDENTIFIER,
  SERVICE_STATUS,
  SERVICE_TYPE,
} from './trust-list-uris.js';

/**
 * The signed trust list's payload: ETSI TS 119 602 V1.1.1, JSON binding (Annex A), the
 * shape of its JSON schema `1960201_json_schema.json` (test/trust-list/etsi/). Only
 * what the registry knows is stated; see the README for each field's source.
 */
export interface LoTEDocument {
  LoTE: {
    ListAndSchemeInformation: ListAndSchemeInformation;
    /** Absent when the ecosystem has no entity (the schema wants at least one item when present). */
    TrustedEntitiesList?: TrustedEntity[];
  };
}

export interface MultiLangString {
  lang: string;
  value: string;
}

export interface MultiLangUri {
  lang: string;
  uriValue: string;
}

export interface ListAndSchemeInformation {
  LoTEVersionIdentifier: number;
  LoTESequenceNumber: number;
  LoTEType: string;
  SchemeOperatorName: MultiLangString[];
  SchemeName: MultiLangString[];
  ListIssueDateTime: string;
  NextUpdate: string;
  DistributionPoints: string[];
}

export interface TrustedEntity {
  TrustedEntityInformation: {
    TEName: MultiLangString[];
    TEAddress: { TEPostalAddress: PostalAddress[]; TEElectronicAddress: MultiLangUri[] };
    TEInformationURI: MultiLangUri[];
  };
  TrustedEntityServices: TrustedEntityService[];
}

export interface PostalAddress {
  lang: string;
  StreetAddress: string;
  Country: string;
}

export interface ServiceDigitalIdentity {
  X509Certificates?: Array<{ val: string }>;
  X509SubjectNames?: string[];
  X509SKIs?: string[];
}

export interface TrustedEntityService {
  ServiceInformation: {
    ServiceName: MultiLangString[];
    ServiceTypeIdentifier: string;
    ServiceStatus: string;
    StatusStartingTime: string;
    ServiceDigitalIdentity: ServiceDigitalIdentity;
    ServiceInformationExtensions?: AllowedCredentialTypesExtension[];
  };
  ServiceHistory?: ServiceHistoryInstance[];
}

export interface ServiceHistoryInstance {
  ServiceName: MultiLangString[];
  ServiceTypeIdentifier: string;
  ServiceStatus: string;
  StatusStartingTime: string;
  ServiceDigitalIdentity: ServiceDigitalIdentity;
}

/** Tessera's extension: the credential types an issuer may issue. Critical: a reader that does not know it must not trust the service at all. */
export interface AllowedCredentialTypesExtension {
  Critical: true;
  [ALLOWED_CREDENTIAL_TYPES_EXTENSION]: AllowedCredentialType[];
}

export interface BuildTrustListPayloadOptions {
  content: TrustListContent;
  /** ListIssueDateTime. */
  issuedAt: Date;
  /** NextUpdate = issuedAt + this (at most 24 h, config.ts). */
  validitySeconds: number;
  /** Where the list is published (DistributionPoints): `<PUBLIC_BASE_URL>/v1/ecosystem/<id>/trust-list`. */
  distributionPoint: string;
}

/** The language of every multilingual value: names are as the organisations gave them, labels are English. */
const LANG = 'en';

/**
 * Placeholders for what ETSI requires of a trusted entity and the registry does not
 * record: a postal address (`ZZ` is ISO 3166's user-assigned code for an unknown
 * country) and, without an information URI, the entity's registry resource as its
 * information and electronic address.
 */
const UNRECORDED_POSTAL_ADDRESS: PostalAddress = {
  lang: LANG,
  StreetAddress: 'Not recorded in the Tessera trust registry',
  Country: 'ZZ',
};

/** The list as of `content.sequence`. Pure: the same content and instant give the same document. */
export function buildTrustListPayload(options: BuildTrustListPayloadOptions): LoTEDocument {
  const { content, issuedAt } = options;
  const entities = content.entities.map((entity) => trustedEntity(entity, options.distributionPoint));
  return {
    LoTE: {
      ListAndSchemeInformation: {
        LoTEVersionIdentifier: LOTE_VERSION_IDENTIFIER,
        LoTESequenceNumber: content.sequence,
        LoTEType: LOTE_TYPE,
        SchemeOperatorName: [{ lang: LANG, value: content.lead.name }],
        SchemeName: [{ lang: LANG, value: content.ecosystem.name }],
        ListIssueDateTime: etsiDateTime(issuedAt),
        NextUpdate: etsiDateTime(nextUpdateOf(issuedAt, options.validitySeconds)),
        DistributionPoints: [options.distributionPoint],
      },
      ...(entities.length > 0 ? { TrustedEntitiesList: entities } : {}),
    },
  };
}

/** NextUpdate of a list issued at `issuedAt`, whole seconds (the ETSI form has none finer). */
export function nextUpdateOf(issuedAt: Date, validitySeconds: number): Date {
  return new Date(Math.floor(issuedAt.getTime() / 1000) * 1000 + validitySeconds * 1000);
}

function trustedEntity(entity: TrustListContentEntity, distributionPoint: string): TrustedEntity {
  // The list's URL ends in /trust-list; the entity's resource sits beside it.
  const entityUri = `${distributionPoint.replace(/\/trust-list$/, '')}/trusted-entities/${entity.id}`;
  const informationUris = [entity.informationUri, entityUri]
    .filter((uri): uri is string => !!uri)
    .map((uri) => ({ lang: LANG, uriValue: uri }));
  const identity = digitalIdentity(entity.certificates);
  const serviceName = [
    { lang: LANG, value: `${entity.name} (${entity.role === 'issuer' ? 'issuance' : 'verification'})` },
  ];
  const serviceType = SERVICE_TYPE[entity.role];
  const history = entity.statusHistory.map((period): ServiceHistoryInstance => ({
    ServiceName: serviceName,
    ServiceTypeIdentifier: serviceType,
    ServiceStatus: serviceStatus(period.status),
    StatusStartingTime: etsiDateTime(period.startingTime),
    // The registry keeps an entity's identity as it is now; history records status periods.
    ServiceDigitalIdentity: identity,
  }));
  return {
    TrustedEntityInformation: {
      TEName: [{ lang: LANG, value: entity.name }],
      TEAddress: {
        TEPostalAddress: [UNRECORDED_POSTAL_ADDRESS],
        TEElectronicAddress: [{ lang: LANG, uriValue: entityUri }],
      },
      TEInformationURI: informationUris,
    },
    TrustedEntityServices: [
      {
        ServiceInformation: {
          ServiceName: serviceName,
          ServiceTypeIdentifier: serviceType,
          ServiceStatus: serviceStatus(entity.status),
          StatusStartingTime: etsiDateTime(entity.statusStartingTime),
          ServiceDigitalIdentity: identity,
          ...(entity.role === 'issuer'
            ? {
                ServiceInformationExtensions: [
                  { Critical: true, [ALLOWED_CREDENTIAL_TYPES_EXTENSION]: entity.allowedCredentialTypes },
                ],
              }
            : {}),
        },
        ...(history.length > 0 ? { ServiceHistory: history } : {}),
      },
    ],
  };
}

/** Certificates (base64 DER), their subjects and SKIs (base64 of the key identifier), each list left out when empty. */
function digitalIdentity(certificates: TrustListContentCertificate[]): ServiceDigitalIdentity {
  const skis = certificates.flatMap((certificate) =>
    certificate.ski ? [Buffer.from(certificate.ski, 'hex').toString('base64')] : [],
  );
  if (certificates.length === 0) return {};
  return {
    X509Certificates: certificates.map((certificate) => ({ val: derBase64(certificate.pem) })),
    X509SubjectNames: certificates.map((certificate) => certificate.subject),
    ...(skis.length > 0 ? { X509SKIs: skis } : {}),
  };
}

function serviceStatus(status: TrustedEntityStatus): string {
  return SERVICE_STATUS[status];
}

/** The certificate's DER, base64 (ETSI pkiOb `val`), without armour or whitespace. */
function derBase64(pem: string): string {
  return (readPemBlocks(pem)[0]?.der ?? Buffer.alloc(0)).toString('base64');
}

/** ETSI TS 119 602 clause 6.1.3: UTC, `YYYY-MM-DDThh:mm:ssZ`, no fractional seconds. */
export function etsiDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
