import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  payloadProblemsV111,
  RegistrationCertificateHeaderV111,
  RegistrationCertificatePayloadV111,
} from '../../src/domain/registration-certificate-v1-1-1.js';
import {
  RegistrationCertificateHeaderV121,
  RegistrationCertificatePayloadV121,
} from '../../src/domain/registration-certificate-v1-2-1.js';
import {
  createTestRegistrar,
  registrationCertificateHeader,
  registrationCertificatePayload,
} from '../support/registration-certificates.js';

// The service validates registration certificates with TypeBox schemas of its own
// (src/domain/registration-certificate-v1-*.ts). Here they are held against the JSON schemas in
// ./etsi (see its README): on every valid certificate of the generators, and on every mutation of it
// (each member removed, given a value of each other JSON type, an unknown member added, at every
// depth), both must give the same answer — but for the differences the service makes on purpose,
// each named below and each accepting more, never less.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const jsonSchema = (path: string) =>
  JSON.parse(readFileSync(new URL(`./etsi/${path}`, import.meta.url), 'utf8')) as object;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

interface Variant {
  name: string;
  value: unknown;
}

const WRONG_VALUES = [1, 1.5, -1, 'x', 'https://elsewhere.example/x', 'a@b.example', null, true, [], {}];

/** The value, and every variant one change away from it at each depth. */
function* variantsOf(value: unknown, path = ''): Generator<Variant> {
  if (path === '') yield { name: '(as issued)', value };
  if (typeof value !== 'object' || value === null) return;
  const container = value as Record<string, unknown>;
  for (const key of Object.keys(container)) {
    const at = `${path}/${key}`;
    const without = structuredClone(container);
    if (Array.isArray(without)) without.splice(Number(key), 1);
    else delete without[key];
    yield { name: `${at} removed`, value: without };
    for (const wrong of WRONG_VALUES) {
      const changed = structuredClone(container);
      changed[key] = wrong;
      yield { name: `${at} = ${JSON.stringify(wrong)}`, value: changed };
    }
    for (const inner of variantsOf(container[key], at)) {
      const changed = structuredClone(container);
      changed[key] = inner.value;
      yield { name: inner.name, value: changed };
    }
  }
  if (!Array.isArray(value)) yield { name: `${path}/unknown added`, value: { ...container, unknown_member: 1 } };
}

interface Disagreement {
  name: string;
  published: boolean;
  service: boolean;
}

function compare(published: object, service: TSchema | ((value: unknown) => boolean), value: unknown): Disagreement[] {
  const accepts = typeof service === 'function' ? service : (candidate: unknown) => Value.Check(service, candidate);
  const validate = ajv.compile(published);
  const disagreements: Disagreement[] = [];
  let count = 0;
  for (const variant of variantsOf(value)) {
    count += 1;
    const byPublished = validate(variant.value);
    const byService = accepts(variant.value);
    if (byPublished !== byService)
      disagreements.push({ name: variant.name, published: byPublished, service: byService });
  }
  expect(count).toBeGreaterThan(50);
  return disagreements;
}

const registrar = await createTestRegistrar('Schema Registrar');

describe('ETSI TS 119 475 V1.1.1 (the published schemas, reconstructed)', () => {
  it('payload: the same answer on every variant, except unknown members at the top (the service ignores them, RFC 7519)', () => {
    const disagreements = compare(
      jsonSchema('v1.1.1/wrprc-payload-schema.json'),
      (payload) => payloadProblemsV111(payload).length === 0,
      registrationCertificatePayload('1.1.1', { intendedUseId: 'use-1' }),
    );
    expect(disagreements).toEqual([{ name: '/unknown added', published: false, service: true }]);
  });

  it('payload: the published conditions on entitlements are checked after the TypeBox schema', () => {
    const validate = ajv.compile(jsonSchema('v1.1.1/wrprc-payload-schema.json'));
    const attestationProvider: Record<string, unknown> = {
      ...registrationCertificatePayload('1.1.1'),
      entitlements: ['https://uri.etsi.org/19475/Entitlement/QEAA_Provider'],
    };
    expect(validate(attestationProvider)).toBe(false);
    expect(Value.Check(RegistrationCertificatePayloadV111, attestationProvider)).toBe(true);
    expect(payloadProblemsV111(attestationProvider).map((problem) => problem.path)).toEqual([
      '/payload/provided_attestations',
    ]);
    // Under the published schema only a service provider's credentials and purpose are evaluated members.
    const { credentials: _credentials, purpose: _purpose, ...issuerOnly } = attestationProvider;
    const provided = { ...issuerOnly, provided_attestations: [{ format: 'dc+sd-jwt', meta: 'urn:x' }] };
    expect([validate(provided), payloadProblemsV111(provided)]).toEqual([true, []]);
  });

  it('header: the same answer, except b64 and cty may be absent or given as true and ["b64"]', () => {
    const header = registrationCertificateHeader('1.1.1', registrar);
    const disagreements = compare(
      jsonSchema('v1.1.1/wrprc-header-schema.json'),
      RegistrationCertificateHeaderV111,
      header,
    );
    expect(disagreements).toEqual([
      { name: '/b64 removed', published: false, service: true },
      { name: '/b64 = true', published: false, service: true },
      { name: '/cty removed', published: false, service: true },
      { name: '/unknown added', published: false, service: true },
    ]);
    const validate = ajv.compile(jsonSchema('v1.1.1/wrprc-header-schema.json'));
    const arrayCty = { ...header, cty: ['b64'] };
    expect([validate(arrayCty), Value.Check(RegistrationCertificateHeaderV111, arrayCty)]).toEqual([false, true]);
  });
});

describe('ETSI TS 119 475 V1.2.1 (the schemas written from its tables)', () => {
  it('payload: the same answer on every variant', () => {
    const payload = {
      ...registrationCertificatePayload('1.2.1', { intendedUseId: 'use-1' }),
      intermediary: { sub: 'LEIXG-529900T8BM49AURSDO55', sname: 'Intermediary' },
      provides_attestations: [{ format: 'dc+sd-jwt', meta: { vct_values: ['urn:example:membership:1'] } }],
      public_body: false,
    };
    expect(
      compare(jsonSchema('v1.2.1/wrprc-payload-schema.json'), RegistrationCertificatePayloadV121, payload),
    ).toEqual([]);
  });

  it('header: the same answer on every variant', () => {
    expect(
      compare(jsonSchema('v1.2.1/wrprc-header-schema.json'), RegistrationCertificateHeaderV121, {
        ...registrationCertificateHeader('1.2.1', registrar),
        kid: 'registrar-2026',
      }),
    ).toEqual([]);
  });
});
