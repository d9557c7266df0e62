// X.509 mechanics shared by the services that run a CA of their own. A subpath of
// the kit (`@tessera/service-kit/x509`), so services without certificates do not load
// @peculiar/x509.
export { x509, subtle, ECDSA_P256, type WebCryptoKey, type WebCryptoKeyPair } from './x509.js';
export {
  certificateAuthorityName,
  generateCertificateAuthority,
  loadCertificateAuthority,
  randomSerialNumber,
  readConfiguredPem,
  selfSignCertificateAuthority,
  type CertificateAuthority,
  type CertificateAuthorityPem,
  type LoadCertificateAuthorityOptions,
} from './certificate-authority.js';
export { ensureDevCertificateAuthority } from './dev-certificate-authority.js';
