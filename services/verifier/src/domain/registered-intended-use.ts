/**
 * What a registration certificate (WRPRC, ETSI TS 119 475) says a relying party registered to ask
 * for, in one shape whatever form or version the certificate had: the registered intended use, its
 * purpose and the credentials (format, type, claims) it may request. The over-asking check
 * (`over-asking.ts`) and the `GET registration-certificate` answer read this shape.
 */

/** A DCQL claims path pointer (OpenID4VP 1.0 §7): keys, array indexes, `null` for every element. */
export type ClaimPath = Array<string | number | null>;

export interface LocalisedText {
  /** BCP 47 language tag as the certificate gives it (`en`, `de-DE`); `und` when it names none. */
  lang: string;
  value: string;
}

export interface RegisteredCredential {
  /** Credential format identifier (`dc+sd-jwt`, `mso_mdoc`, …). */
  format: string;
  /** SD-JWT VC type; one entry per registered `vct`. */
  vct?: string;
  /** mdoc document type. */
  doctype?: string;
  /**
   * The claims registered for this credential type. `'all'`: the certificate names none and its
   * version reads that as every claim (TS 119 475 V1.1.1). An empty list: no claim may be asked for
   * (V1.2.1, the BMI `rc-rp+jwt` form). A `null` element matches any key or index at its place; an
   * mdoc element registered without its namespace (V1.1.1's string paths) is `[null, element]`.
   */
  claims: ClaimPath[] | 'all';
}

export interface RegisteredIntendedUse {
  /** The registrar's identifier of the intended use (`intended_use_id`), when the certificate has one. */
  id?: string;
  /** Why the data is processed, in the languages the certificate gives; empty when it states no purpose. */
  purpose: LocalisedText[];
  credentials: RegisteredCredential[];
}
