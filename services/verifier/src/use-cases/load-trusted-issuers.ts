import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { CredentialTypesSchema } from '@tessera/contracts';
import { splitPemCertificates, StartupError } from '@tessera/service-kit';
import { parseTrustAnchor } from '../verification/index.js';
import type { TrustedIssuer } from './steps/load-trust-store.js';

// A start step (server.ts, before any connection is opened).

/** TRUSTED_ISSUERS_FILE cannot be used: the process stops at start with this one line. */
export class TrustedIssuersFileError extends StartupError {
  constructor(message: string) {
    super(`TRUSTED_ISSUERS_FILE: ${message}`);
    this.name = 'TrustedIssuersFileError';
  }
}

/** The JSON form of the bundle: one entry per CA certificate, each optionally limited to credential types. */
const JsonBundleSchema = Type.Array(
  Type.Object(
    { certificatePem: Type.String({ minLength: 1 }), credentialTypes: Type.Optional(CredentialTypesSchema) },
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

/**
 * The platform-wide issuer anchors, in one of two forms, told apart by the
 * first character:
 * - a PEM bundle: every certificate an anchor for any credential type;
 * - a JSON array `[{ "certificatePem": "...", "credentialTypes": ["..."] }]`:
 *   each entry one CA certificate, limited to the `vct` values and doctypes
 *   listed (absent: any type), as an organisation's anchor can be.
 * Every certificate must be a CA certificate (the same rule as an
 * organisation's anchor). A file that cannot be read or parsed, holds no
 * certificate, or holds one that is not a CA stops the start rather than
 * silently trusting less (or more) than configured.
 */
export function loadTrustedIssuers(path: string | undefined): TrustedIssuer[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TrustedIssuersFileError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const entries = text.trimStart().startsWith('[') ? readJsonBundle(path, text) : readPemBundle(path, text);
  entries.forEach((entry, index) => {
    const parsed = parseTrustAnchor({ certificatePem: entry.certificatePem });
    if (!parsed.ok) throw new TrustedIssuersFileError(`certificate ${index + 1} of ${path}: ${parsed.message}`);
  });
  return entries;
}

function readPemBundle(path: string, text: string): TrustedIssuer[] {
  const blocks = splitPemCertificates(text);
  if (blocks.length === 0) throw new TrustedIssuersFileError(`${path} holds no PEM certificate`);
  return blocks.map((certificatePem) => ({ certificatePem }));
}

function readJsonBundle(path: string, text: string): TrustedIssuer[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TrustedIssuersFileError(`${path} starts with "[" but is not valid JSON`);
  }
  if (!Value.Check(JsonBundleSchema, json)) {
    const [first] = [...Value.Errors(JsonBundleSchema, json)];
    throw new TrustedIssuersFileError(
      `${path} is not a JSON array of { certificatePem, credentialTypes? }${first ? ` (${first.instancePath || '/'}: ${first.message})` : ''}`,
    );
  }
  return json.map((entry) => ({
    certificatePem: entry.certificatePem,
    ...(entry.credentialTypes ? { credentialTypes: [...new Set(entry.credentialTypes)] } : {}),
  }));
}
