// Generators of hostile wallet responses for the targeted fuzz: plans (pure
// data from fast-check) that the test turns into form fields or DC API bodies
// for the session under attack, since a JWE needs that session's key.
import fc from 'fast-check';
import { decode as cborDecode, encode as cborEncode } from 'cbor-x';
import { CompactEncrypt, importJWK, type JWK } from 'jose';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const b64 = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
const b64Chars = (maxLength = 40) => fc.string({ unit: fc.constantFrom(...B64URL), maxLength });
const NON_OBJECT_JSON = ['null', '[]', '[1,2]', '"a string"', '42', 'true', '{', '', '\u0000', '{"a":'];

/** Base presentations the mutations start from: valid in form, bound to another session (never acceptable here). */
export interface FuzzBase {
  sdJwt: string;
  mdoc: string;
}

/** A string changed at a random place: truncated, characters replaced (in or out of the alphabet), `~` segments inserted, doubled. */
function garble(base: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: base.length }).map((at) => base.slice(0, at)),
    fc
      .tuple(
        fc.nat({ max: base.length - 1 }),
        fc.constantFrom(...B64URL, '~', '.', '=', '+', '/', '%', ' ', '\u00e9', '\ud83d\ude00'),
      )
      .map(([at, char]) => base.slice(0, at) + char + base.slice(at + 1)),
    fc
      .tuple(fc.nat({ max: base.length }), fc.array(b64Chars(), { maxLength: 5 }))
      .map(([at, parts]) => `${base.slice(0, at)}~${parts.join('~')}~${base.slice(at)}`),
    fc.constant(`${base}${base}`),
    fc.constant(base.replace(/~/g, '~~')),
  );
}

/** SD-JWT-shaped strings: garbled real ones, random `~` segments, JSON that is not an object, huge disclosures. */
export function sdJwtArb(base: string): fc.Arbitrary<string> {
  const [jwt] = base.split('~') as [string];
  const jsonSegment = fc.constantFrom(...NON_OBJECT_JSON).map(b64);
  return fc.oneof(
    { arbitrary: garble(base), weight: 4 },
    fc
      .array(fc.oneof(b64Chars(80), jsonSegment, fc.string({ maxLength: 20 })), { maxLength: 8 })
      .map((parts) => parts.join('~')),
    fc
      .tuple(jsonSegment, jsonSegment, b64Chars())
      .map(([header, payload, signature]) => `${header}.${payload}.${signature}~`),
    fc
      .tuple(fc.integer({ min: 1000, max: 300_000 }), fc.constantFrom('name', '_sd', '__proto__'))
      .map(([size, name]) => `${jwt}~${b64(JSON.stringify(['salt', name, 'x'.repeat(size)]))}~`),
    fc.array(jsonSegment, { minLength: 1, maxLength: 4 }).map((disclosures) => `${jwt}~${disclosures.join('~')}~`),
    fc.integer({ min: 1000, max: 300_000 }).map((size) => `${'A'.repeat(size)}.${'B'.repeat(size / 10)}.C~`),
    fc.constantFrom('', '~', '~~~~', '.', '..', 'a.b.c~', 'e30.e30.~', `${jwt}`, `${jwt}~`),
  );
}

/** Deeply nested CBOR: arrays, maps or tags, thousands deep. */
const deepCbor = fc
  .tuple(fc.integer({ min: 100, max: 50_000 }), fc.constantFrom('array', 'map', 'tag', 'tag24'))
  .map(([depth, kind]) => {
    const prefix = kind === 'array' ? [0x81] : kind === 'map' ? [0xa1, 0x00] : kind === 'tag' ? [0xc6] : [0xd8, 0x18];
    return Buffer.concat([Buffer.from(Array.from({ length: depth }, () => prefix).flat()), Buffer.from([0x00])]);
  });

/** CBOR whose declared lengths are enormous (a decoder must not trust them). */
const HUGE_LENGTHS = [
  '5bffffffffffffffff',
  '9bffffffffffffffff',
  'bbffffffffffffffff',
  '7a7fffffff',
  '5a7fffffff00',
  'a3',
  '9f9f9f9f',
  'ff',
  'f8',
  'd818',
  'd81840',
];

/** A decoded DeviceResponse with one field replaced by a value of the wrong type. */
function wrongTypes(base: Uint8Array): fc.Arbitrary<Uint8Array> {
  const paths = [
    ['version'],
    ['status'],
    ['documents'],
    ['documents', 0],
    ['documents', 0, 'docType'],
    ['documents', 0, 'issuerSigned'],
    ['documents', 0, 'issuerSigned', 'nameSpaces'],
    ['documents', 0, 'issuerSigned', 'issuerAuth'],
    ['documents', 0, 'deviceSigned'],
    ['documents', 0, 'deviceSigned', 'deviceAuth'],
  ];
  const wrong = fc.oneof(
    fc.anything({ maxDepth: 2 }),
    fc.uint8Array({ maxLength: 40 }),
    fc.constantFrom(null, -1, 2 ** 53, '', [], {}),
  );
  return fc.tuple(fc.constantFrom(...paths), wrong).map(([path, value]) => {
    const decoded = cborDecode(base) as Record<string | number, unknown>;
    let target: Record<string | number, unknown> = decoded;
    for (const key of path.slice(0, -1)) target = (target?.[key] ?? {}) as Record<string | number, unknown>;
    target[path.at(-1)!] = value;
    return new Uint8Array(cborEncode(decoded));
  });
}

/** base64url CBOR: random, truncated, byte-flipped, deeply nested, huge lengths, or a DeviceResponse with wrong types. */
export function mdocArb(base: string): fc.Arbitrary<string> {
  const bytes = new Uint8Array(Buffer.from(base, 'base64url'));
  return fc.oneof(
    {
      arbitrary: fc
        .array(fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        })
        .map((flips) => {
          const copy = Buffer.from(bytes);
          for (const [at, value] of flips) copy[at] = value;
          return b64(copy);
        }),
      weight: 3,
    },
    fc.nat({ max: bytes.length - 1 }).map((at) => b64(bytes.subarray(0, at))),
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.uint8Array({ minLength: 1, maxLength: 16 }))
      .map(([at, extra]) => b64(Buffer.concat([bytes.subarray(0, at), extra, bytes.subarray(at)]))),
    fc.uint8Array({ maxLength: 400 }).map(b64),
    deepCbor.map(b64),
    fc.constantFrom(...HUGE_LENGTHS).map((hex) => b64(Buffer.from(hex, 'hex'))),
    { arbitrary: wrongTypes(bytes).map(b64), weight: 3 },
    fc.constantFrom(base.slice(1), `${base}=`, base.replace(/[-_]/g, '+'), `~${base}`, ''),
  );
}

export function presentationArb(base: FuzzBase): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: sdJwtArb(base.sdJwt), weight: 3 },
    { arbitrary: mdocArb(base.mdoc), weight: 3 },
    fc.anything({ maxDepth: 1 }),
  );
}

/** vp_token values: object-shaped (keyed by credential query ids or not) and every other JSON shape. */
export function vpTokenArb(base: FuzzBase): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { arbitrary: fc.constantFrom('pid', 'mdl'), weight: 5 },
    fc.string({ maxLength: 8 }),
    fc.constantFrom('__proto__', 'constructor'),
  );
  const entry = fc.oneof(
    { arbitrary: fc.array(presentationArb(base), { minLength: 1, maxLength: 3 }), weight: 6 },
    fc.anything({ maxDepth: 2 }),
    fc.constant([]),
  );
  // Mostly well keyed (one presentation per known id), so most cases reach the credential parsers.
  const single = (arb: fc.Arbitrary<string>) => arb.map((presentation) => [presentation]);
  const wellKeyed = fc.oneof(
    fc.record({ pid: single(sdJwtArb(base.sdJwt)) }),
    fc.record({ mdl: single(mdocArb(base.mdoc)) }),
    fc.record({ pid: single(sdJwtArb(base.sdJwt)), mdl: single(mdocArb(base.mdoc)) }),
    fc.record({ pid: single(mdocArb(base.mdoc)), mdl: single(sdJwtArb(base.sdJwt)) }),
  );
  return fc.oneof(
    { arbitrary: wellKeyed, weight: 8 },
    { arbitrary: fc.dictionary(key, entry, { minKeys: 1, maxKeys: 3 }), weight: 3 },
    fc.anything({ maxDepth: 2 }),
    fc.constant({}),
  );
}

/** A form `vp_token` string: JSON of a value above, or text that is not (deeply nested, cut short, not JSON). */
export function vpTokenTextArb(base: FuzzBase): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: vpTokenArb(base).map((value) => JSON.stringify(value) ?? 'undefined'), weight: 6 },
    fc.integer({ min: 10, max: 100_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 10, max: 100_000 }).map((depth) => `${'{"pid":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.string({ maxLength: 50 }),
    fc.constantFrom(...NON_OBJECT_JSON),
  );
}

export type StatePlan = 'correct' | 'wrong' | 'absent';
export const stateArb: fc.Arbitrary<StatePlan> = fc.oneof(
  { arbitrary: fc.constant('correct' as const), weight: 4 },
  fc.constantFrom('wrong' as const, 'absent' as const),
);

/** The JWE's plaintext: bytes, text, JSON that is not an object, or response parameters. */
export type PayloadPlan =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'text'; text: string }
  | { kind: 'response'; vpToken: unknown; asString: boolean; state: StatePlan }
  | { kind: 'error'; error: unknown; state: StatePlan };

export interface JwePlan {
  kind: 'jwe';
  payload: PayloadPlan;
  alg: 'ECDH-ES' | 'ECDH-ES+A128KW';
  enc: 'A128GCM' | 'A256GCM' | 'A128CBC-HS256';
  kid: 'session' | 'other' | 'absent';
  /** Replace one of the five segments (0 header … 4 tag) after encryption. */
  segment?: { index: number; with: 'random' | 'truncated' | 'json' | 'empty'; random: string; json: unknown };
}

export type ResponseStringPlan = JwePlan | { kind: 'garbage'; text: string };

export function responseArb(base: FuzzBase): fc.Arbitrary<ResponseStringPlan> {
  const payload: fc.Arbitrary<PayloadPlan> = fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'bytes' as const, bytes })),
    fc
      .oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...NON_OBJECT_JSON))
      .map((text) => ({ kind: 'text' as const, text })),
    {
      arbitrary: fc.record({
        kind: fc.constant('response' as const),
        vpToken: vpTokenArb(base),
        asString: fc.boolean(),
        state: stateArb,
      }),
      weight: 5,
    },
    fc.record({
      kind: fc.constant('error' as const),
      error: fc.oneof(fc.constantFrom('access_denied'), fc.anything({ maxDepth: 1 })),
      state: stateArb,
    }),
  );
  const jwe: fc.Arbitrary<JwePlan> = fc.record(
    {
      kind: fc.constant('jwe' as const),
      payload,
      alg: fc.oneof({ arbitrary: fc.constant('ECDH-ES' as const), weight: 6 }, fc.constant('ECDH-ES+A128KW' as const)),
      enc: fc.oneof(
        { arbitrary: fc.constantFrom('A128GCM' as const, 'A256GCM' as const), weight: 6 },
        fc.constant('A128CBC-HS256' as const),
      ),
      kid: fc.oneof(
        { arbitrary: fc.constant('session' as const), weight: 6 },
        fc.constantFrom('other' as const, 'absent' as const),
      ),
      segment: fc.record({
        index: fc.integer({ min: 0, max: 4 }),
        with: fc.constantFrom('random' as const, 'truncated' as const, 'json' as const, 'empty' as const),
        random: b64Chars(60),
        json: fc.anything({ maxDepth: 2 }),
      }),
    },
    { requiredKeys: ['kind', 'payload', 'alg', 'enc', 'kid'] },
  );
  const garbage = fc
    .oneof(
      fc.array(b64Chars(60), { minLength: 5, maxLength: 5 }).map((parts) => parts.join('.')),
      fc.array(b64Chars(20), { maxLength: 8 }).map((parts) => parts.join('.')),
      fc
        .tuple(fc.anything({ maxDepth: 2 }), b64Chars())
        .map(([header, rest]) => `${b64(JSON.stringify(header) ?? 'x')}.${rest}.${rest}.${rest}.${rest}`),
      fc.constantFrom(
        `${b64('{"alg":"ECDH-ES","enc":"A128GCM","zip":"DEF"}')}....`,
        `${b64('{"alg":"none"}')}.a.b.c.d`,
        'a.b.c.d.e',
        '....',
        base.sdJwt.split('~')[0]!,
      ),
    )
    .map((text) => ({ kind: 'garbage' as const, text }));
  return fc.oneof({ arbitrary: jwe, weight: 3 }, garbage);
}

/** True when the plan is a response its session's wallet could have sent: decryptable and, where needed, with the right state. */
export function jweMayEnd(plan: ResponseStringPlan, stateRequired: boolean): boolean {
  if (
    plan.kind !== 'jwe' ||
    plan.segment ||
    plan.alg !== 'ECDH-ES' ||
    plan.enc === 'A128CBC-HS256' ||
    plan.kid !== 'session'
  )
    return false;
  const { payload } = plan;
  if (payload.kind !== 'response' && payload.kind !== 'error') return false;
  // DC API requests carry no state, so a decrypted `state` there is not checked; at the
  // response endpoint every answer, a wallet error included, carries the session's.
  const stateOk = !stateRequired || payload.state === 'correct';
  if (payload.kind === 'error') return stateOk;
  const { vpToken } = payload;
  return stateOk && typeof vpToken === 'object' && vpToken !== null && !Array.isArray(vpToken);
}

/** Builds the compact JWE (or garbage) a plan describes, for a session whose public key is `sessionJwk`. */
export async function materialise(
  plan: ResponseStringPlan,
  sessionJwk: JWK,
  state: string,
  otherJwk: JWK,
): Promise<string> {
  if (plan.kind === 'garbage') return plan.text;
  const { payload } = plan;
  const stateValue = (choice: StatePlan) =>
    choice === 'correct' ? { state } : choice === 'wrong' ? { state: `${state}x` } : {};
  const plaintext =
    payload.kind === 'bytes'
      ? payload.bytes
      : payload.kind === 'text'
        ? new TextEncoder().encode(payload.text)
        : new TextEncoder().encode(
            JSON.stringify(
              payload.kind === 'response'
                ? {
                    vp_token: payload.asString ? JSON.stringify(payload.vpToken) : payload.vpToken,
                    ...stateValue(payload.state),
                  }
                : { error: payload.error, ...stateValue(payload.state) },
            ),
          );
  const key = plan.kid === 'other' ? otherJwk : sessionJwk;
  const header = { alg: plan.alg, enc: plan.enc, ...(plan.kid === 'absent' ? {} : { kid: sessionJwk.kid }) };
  const jwe = await new CompactEncrypt(plaintext)
    .setProtectedHeader(header)
    .encrypt(await importJWK({ ...key, alg: plan.alg }, plan.alg));
  if (!plan.segment) return jwe;
  const parts = jwe.split('.');
  const { index } = plan.segment;
  const replacement = {
    random: plan.segment.random,
    truncated: parts[index]!.slice(0, Math.floor(parts[index]!.length / 2)),
    json: b64(JSON.stringify(plan.segment.json) ?? 'null'),
    empty: '',
  }[plan.segment.with];
  if (replacement === parts[index]) return `${jwe}x`;
  parts[index] = replacement;
  return parts.join('.');
}
