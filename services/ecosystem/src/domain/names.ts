import type { IntentBody } from '@tessera/contracts';
import { badRequest } from '@tessera/service-kit';

export interface NormaliseNameOptions {
  value: string;
  /** JSON Pointer of the field, for `details`. */
  path: string;
  min: number;
  max: number;
}

/**
 * Trims a display name and checks its length again: "  a " must not pass a minimum
 * of 2, and names differing only by outer spaces would otherwise look unique.
 */
export function normaliseName(options: NormaliseNameOptions): string {
  const name = options.value.trim().replace(/\s+/g, ' ');
  if (name.length < options.min || name.length > options.max) {
    const message = `body ${options.path} must be ${options.min} to ${options.max} characters, not counting outer spaces`;
    throw badRequest('The request is invalid: see details.', [{ path: options.path, message }]);
  }
  return name;
}

/** An intent's name normalised (1–100 characters) and its description trimmed (ECOSYSTEM.md, Intents). */
export function normaliseIntentBody(body: IntentBody): IntentBody {
  return {
    name: normaliseName({ value: body.name, path: '/name', min: 1, max: 100 }),
    description: body.description.trim(),
  };
}
