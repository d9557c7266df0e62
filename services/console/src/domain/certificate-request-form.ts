import type { CreateCertificateSigningRequestBody } from '@tessera/contracts';

/** The certificate signing request form as a person fills it: one line per subject field, SANs separated by spaces. */
export interface CertificateRequestForm {
  commonName: string;
  organizationName: string;
  organizationIdentifier?: string;
  countryName: string;
  sanDns?: string;
  sanUri?: string;
}

/** A form's list field: entries separated by spaces or line breaks. */
function entriesOf(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter(Boolean);
}

/**
 * The verifier's `POST certificates/{keyType}/csr` body from the form: values trimmed, empty
 * optional fields and empty SAN lists left out (the verifier refuses an empty list), and
 * nothing else judged here — the verifier names each problem at its path.
 */
export function certificateRequestBodyOf(form: CertificateRequestForm): CreateCertificateSigningRequestBody {
  const identifier = form.organizationIdentifier?.trim();
  const sanDns = entriesOf(form.sanDns);
  const sanUri = entriesOf(form.sanUri);
  return {
    subject: {
      commonName: form.commonName.trim(),
      organizationName: form.organizationName.trim(),
      ...(identifier ? { organizationIdentifier: identifier } : {}),
      countryName: form.countryName.trim(),
    },
    ...(sanDns.length > 0 ? { sanDns } : {}),
    ...(sanUri.length > 0 ? { sanUri } : {}),
  };
}
