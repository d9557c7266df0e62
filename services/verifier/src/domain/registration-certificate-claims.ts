import type { RegisteredIntendedUse } from './registered-intended-use.js';

/**
 * The forms of registration certificate the verifier reads: ETSI TS 119 475 V1.2.1 and V1.1.1
 * (`typ` `rc-wrp+jwt`; V1.1.1's `sub` is an object, V1.2.1's a string), and the earlier form of the
 * German EUDI wallet architecture (BMI "Architekturkonzept", `typ` `rc-rp+jwt`, a DCQL-shaped
 * `credentials` list), which Credo and the first registrars emitted.
 */
export type RegistrationCertificateForm = 'ts119475-v1.2.1' | 'ts119475-v1.1.1' | 'rc-rp';

export interface RegisteredRelyingParty {
  /** The relying-party identifier (`sub`; V1.1.1: the first identifier of `sub.id`), an EN 319 412-1 semantics identifier. */
  identifier: string;
  /** Trade name (`name`). */
  name?: string;
  /** Legal name (`sub_ln`, or given and family name of a natural person). */
  legalName?: string;
  country?: string;
}

/** What a registration certificate's header and payload say, read and checked for its form. */
export interface RegistrationCertificateClaims {
  form: RegistrationCertificateForm;
  relyingParty: RegisteredRelyingParty;
  /** The intermediary acting for the relying party (V1.2.1 `intermediary`, V1.1.1 `act.sub`). */
  intermediary?: { identifier: string; name?: string };
  /**
   * The identifiers one of which the access certificate signing the requests must carry: the
   * relying party's, or the intermediary's when one acts for it (it signs the requests then).
   */
  bindingIdentifiers: string[];
  /** JSON Pointer of the member holding them (`/payload/sub`, `/payload/intermediary/sub`, …), for a refusal's details. */
  bindingPointer: string;
  intendedUse: RegisteredIntendedUse;
  /** Seconds since the epoch (`iat`, `nbf`, `exp`). */
  issuedAt?: number;
  notBefore?: number;
  expiresAt?: number;
}
