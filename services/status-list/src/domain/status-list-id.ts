import { UUID_V4_PATTERN } from '@tessera/contracts';
import { statusListNotFound } from './errors.js';

// Ids are UUID v4 only (the body schema's pattern), stricter than the kit's isUuid.
const UUID_V4 = new RegExp(UUID_V4_PATTERN);

/**
 * The canonical (lowercase) id of a path `list_id`. A value that is not a UUID v4
 * is reported as an unknown list (404), never as a validation error (STATUS-LIST.md).
 */
export function parseListId(listId: string): string {
  if (!UUID_V4.test(listId)) throw statusListNotFound(listId);
  return listId.toLowerCase();
}
