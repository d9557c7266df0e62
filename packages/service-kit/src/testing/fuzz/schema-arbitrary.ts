import fc from 'fast-check';

/** The JSON Schema subset TypeBox emits for our routes. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** Values that have broken parsers before: control characters, NUL, long runs, odd unicode. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uFFFF',
    '\uD800',
    '💥🔥',
    'ﬀ',
    '../../etc/passwd',
    '%00',
    '${jndi:x}',
    "' OR 1=1 --",
    '<script>',
    'null',
    'true',
    '-1',
    '1e309',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Numbers at the edges of what JSON and our columns hold. */
export const edgeNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  0.5,
  1e-300,
);

/**
 * A fast-check arbitrary of values that satisfy `schema` (as far as this subset
 * goes: patterns are honoured when fast-check can generate them).
 */
export function arbitraryFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((member) => arbitraryFor(member, depth + 1)));
  if (schema.allOf) return arbitraryFor(mergeAllOf(schema.allOf), depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: clampInt(schema.minimum ?? -1e9), max: clampInt(schema.maximum ?? 1e9) });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
      });
    case 'object':
      return objectFor(schema, depth);
    default:
      return schema.properties ? objectFor(schema, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

function clampInt(value: number): number {
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(value)));
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    case 'date-time':
      return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((date) => date.toISOString());
  }
  if (schema.pattern) {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern));
      return schema.maxLength !== undefined
        ? matching.filter((s) => s.length <= schema.maxLength! && s.length >= (schema.minLength ?? 0))
        : matching;
    } catch {
      // fall through to a plain string
    }
  }
  return fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 24, Math.max(schema.minLength ?? 0, 24)),
  });
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, arbitraryFor(value, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

function mergeAllOf(members: JsonSchema[]): JsonSchema {
  return members.reduce<JsonSchema>(
    (merged, member) => ({
      type: 'object',
      properties: { ...merged.properties, ...member.properties },
      required: [...(merged.required ?? []), ...(member.required ?? [])],
    }),
    { type: 'object', properties: {}, required: [] },
  );
}

/** Deeply nested arrays: a stack-depth attack on parsers and validators. */
function deepNesting(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/**
 * Turns a valid-shaped value into a hostile one: a field removed, retyped, made huge,
 * nested deeply, filled with NULs or edge numbers, an unknown field added, or the
 * whole value replaced by another JSON type.
 */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const replacement = fc.oneof(
    nastyString,
    edgeNumber,
    fc.constantFrom(null, true, false, [], {}, 'x'.repeat(100_000), deepNesting(500)),
    fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  );
  return fc
    .tuple(valid, fc.nat(), replacement, fc.constantFrom('drop', 'retype', 'extra', 'whole'))
    .map(([value, index, other, how]) => {
      if (how === 'whole' || !value || typeof value !== 'object' || Array.isArray(value)) return other;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys[index % Math.max(keys.length, 1)];
      if (how === 'extra' || key === undefined) copy[`unexpected_${index % 7}`] = other;
      else if (how === 'drop') delete copy[key];
      else copy[key] = other;
      return copy;
    });
}
