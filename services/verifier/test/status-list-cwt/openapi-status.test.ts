import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';

// The result's `status` in the OpenAPI document: the entry checked and the form of the list.
const test = harnessTest();

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  required?: string[];
};

describe('OpenAPI: a verified presentation’s status names the form of the list', () => {
  test('GET verifier-presentation-response documents status { uri, idx, status, format: jwt | cwt }', async ({
    harness: { call },
  }) => {
    const document = (await call('GET', '/docs/json')).body as {
      paths: Record<
        string,
        Record<
          string,
          { description?: string; responses: Record<string, { content: Record<string, { schema: Schema }> }> }
        >
      >;
    };
    const path = Object.keys(document.paths).find((candidate) =>
      candidate.endsWith('/verifier-presentation-response'),
    )!;
    const operation = document.paths[path]!.get!;
    const body = operation.responses['200']!.content['application/json']!.schema;
    const status = body.properties!.data!.properties!.presentations!.items!.properties!.status!;
    expect(Object.keys(status.properties!).sort()).toEqual(['format', 'idx', 'status', 'uri']);
    expect(status.required?.sort()).toEqual(['idx', 'status', 'uri']);
    expect(status.properties!.format!.anyOf!.flatMap((option) => option.enum)).toEqual(['jwt', 'cwt']);
    expect(operation.description).toContain('application/statuslist+cwt');
  });
});
