import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { Decoder } from 'cbor-x';
import type { JWK } from 'jose';
import { buildAnnexCSessionTranscript } from './annex-c-session-transcript.js';

const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

/** The one HPKE suite of Annex C: base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM (RFC 9180). */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
/** An uncompressed P-256 point: 0x04 ‖ x ‖ y. */
const ENC_LENGTH = 65;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface OpenAnnexCResponseOptions {
  /** `authorizationResponse.response`: the base64url EncryptedResponse the browser returned. */
  response: unknown;
  /** The base64url EncryptionInfo exactly as this session sent it. */
  encryptionInfo: string;
  /** The origin the browser reported (already one of the session's expected origins). */
  origin: string;
  /** The session's HPKE recipient private key. */
  recipientPrivateJwk: JWK;
}

export type OpenAnnexCResponseResult =
  | {
      ok: true;
      /** The DeviceResponse CBOR the wallet encrypted. */
      deviceResponse: Uint8Array;
      /** The Annex C SessionTranscript (plain CBOR) the device signatures must cover. */
      sessionTranscript: Uint8Array;
    }
  /** Not an EncryptedResponse, or it does not open for this session and origin: `DECRYPTION_FAILED`. */
  | { ok: false; message: string };

/**
 * Opens an `org-iso-mdoc` answer (ISO/IEC 18013-7:2025 Annex C): parses
 * `["dcapi", { "enc": bstr, "cipherText": bstr }]` and opens it with HPKE,
 * `info` = the plain CBOR SessionTranscript of this session's EncryptionInfo
 * and the reported origin, empty `aad`. An answer encrypted for another
 * session's EncryptionInfo, relayed through another origin, or altered does not
 * open: the AEAD tag fails.
 */
export async function openAnnexCResponse(options: OpenAnnexCResponseOptions): Promise<OpenAnnexCResponseResult> {
  const fail = (message: string): OpenAnnexCResponseResult => ({ ok: false, message });
  if (typeof options.response !== 'string' || !BASE64URL.test(options.response))
    return fail('The response is not a base64url EncryptedResponse.');
  let decoded: unknown;
  try {
    decoded = decoder.decode(Buffer.from(options.response, 'base64url'));
  } catch {
    return fail('The response is not CBOR.');
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== 'dcapi' || !(decoded[1] instanceof Map))
    return fail('The response is not an EncryptedResponse ["dcapi", { enc, cipherText }].');
  const data = decoded[1] as Map<unknown, unknown>;
  const enc = data.get('enc');
  const cipherText = data.get('cipherText');
  if (!(enc instanceof Uint8Array) || enc.length !== ENC_LENGTH || enc[0] !== 0x04)
    return fail('The EncryptedResponse has no uncompressed P-256 `enc`.');
  if (!(cipherText instanceof Uint8Array) || cipherText.length === 0)
    return fail('The EncryptedResponse has no `cipherText`.');

  const sessionTranscript = buildAnnexCSessionTranscript({
    encryptionInfo: options.encryptionInfo,
    origin: options.origin,
  });
  try {
    const recipientKey = await suite.kem.importKey('jwk', { ...options.recipientPrivateJwk }, false);
    const plaintext = await suite.open(
      { recipientKey, enc: new Uint8Array(enc), info: sessionTranscript },
      new Uint8Array(cipherText),
      new Uint8Array(0),
    );
    return { ok: true, deviceResponse: new Uint8Array(plaintext), sessionTranscript };
  } catch {
    // One message for every way of not opening: which one it was helps only an attacker.
    return fail('The response does not decrypt with this session’s key, EncryptionInfo and origin.');
  }
}
