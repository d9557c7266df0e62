import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { ErrorDetail } from '@tessera/contracts';

const MAX_PROBLEMS = 20;

/**
 * The problems TypeBox finds in `value` against `schema`, each with the JSON Pointer of the member
 * (prefixed with `pointer`, e.g. `/payload`), at most twenty; an empty list means the value fits.
 * A value that fits no alternative of a union is one problem at its place ("matches none of the
 * allowed forms"), not one per alternative and per branch member.
 */
export function schemaProblems(schema: TSchema, value: unknown, pointer: string): ErrorDetail[] {
  if (Value.Check(schema, value)) return [];
  // `schema is false` repeats the additionalProperties error of the same object.
  const errors = [...Value.Errors(schema, value)].filter((error) => error.keyword !== 'boolean');
  const unions = errors.filter((error) => error.keyword === 'anyOf');
  const insideUnion = (error: (typeof errors)[number]) =>
    unions.some(
      (union) =>
        union !== error &&
        (error.instancePath === union.instancePath || error.instancePath.startsWith(`${union.instancePath}/`)) &&
        error.schemaPath.startsWith(`${union.schemaPath}/anyOf/`),
    );
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (insideUnion(error)) continue;
    const path = `${pointer}${error.instancePath}` || '/';
    const message = `${path}: ${error.keyword === 'anyOf' ? 'matches none of the allowed forms' : error.message}`;
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push({ path, message });
    if (problems.length === MAX_PROBLEMS) break;
  }
  return problems;
}
