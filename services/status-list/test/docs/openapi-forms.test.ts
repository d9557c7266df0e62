import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';

const test = harnessTest();

interface Operation {
  description?: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe('OpenAPI document: both forms, history and aggregation', () => {
  test('documents jwt and cwt bodies, both media types, the time parameter and the aggregation', async ({
    harness: { call },
  }) => {
    const paths: Record<string, Record<string, Operation>> = (await call('GET', '/docs/json')).body.paths;
    const post = paths['/status-lists']!.post!;
    expect(Object.keys(post.requestBody!.content['application/json']!.schema.properties!).sort()).toEqual([
      'cwt',
      'id',
      'jwt',
    ]);
    const patch = paths['/status-lists/{list_id}']!.patch!;
    expect(Object.keys(patch.requestBody!.content['application/json']!.schema.properties!).sort()).toEqual([
      'cwt',
      'jwt',
    ]);
    expect(patch.description).toContain('FORMAT_MISMATCH');

    const get = paths['/status-lists/{list_id}']!.get!;
    expect(Object.keys(get.responses['200']!.content!).sort()).toEqual([
      'application/statuslist+cwt',
      'application/statuslist+jwt',
    ]);
    expect(get.parameters?.find((p) => p.name === 'time')).toMatchObject({ in: 'query' });
    expect(get.description).toContain('NO_STATUS_AT_TIME');

    const aggregation = paths['/status-lists/aggregation']!.get!;
    expect(aggregation.security).toEqual([]);
    expect(Object.keys(aggregation.responses).sort()).toEqual(['200', '304', '406']);
    expect(aggregation.responses['200']!.content).toHaveProperty('application/json');
    expect(aggregation.description).toContain('aggregation_uri');
  });
});
