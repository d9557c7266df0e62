// Route schema pieces shared by the route modules (the envelope and paging schemas are the kit's).
import { Type } from 'typebox';

/** A path id kept as a plain string: malformed ids are answered 404 like unknown ones (README). */
export const PathId = Type.String({ maxLength: 200 });
