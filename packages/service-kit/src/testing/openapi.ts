/** An operation of an OpenAPI 3 document, as far as the documentation rules read it. */
interface OpenApiOperation {
  summary?: unknown;
  tags?: unknown;
  security?: unknown;
  responses?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

/**
 * The documentation rule every service's `/docs` follows (see `routeSchema`): each
 * operation has a summary, states its security (an empty list for public ones),
 * declares its error responses (liveness, tagged `health`, has none by design), and a
 * secured one declares 401. Returns one line per
 * breach, `METHOD /path: problem`, so a test can expect `[]`.
 */
export function findUndocumentedOperations(document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses ?? {});
      if (typeof operation.summary !== 'string' || operation.summary.length === 0)
        problems.push(`${where}: no summary`);
      if (!Array.isArray(operation.security))
        problems.push(`${where}: no security requirement (use [] for a public route)`);
      const liveness = Array.isArray(operation.tags) && operation.tags.includes('health');
      if (!liveness && !statuses.some((status) => Number(status) >= 400 || /^[45]XX$/i.test(status)))
        problems.push(`${where}: no error response`);
      if (Array.isArray(operation.security) && operation.security.length > 0 && !statuses.includes('401'))
        problems.push(`${where}: secured but no 401`);
    }
  }
  return problems;
}
