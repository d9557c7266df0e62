import { describe, expect } from 'vitest';
import { findUndocumentedOperations } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';

const test = harnessTest();

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}

describe('OpenAPI document', () => {
  test('documents the routes in OpenAPI', async ({ harness: { call } }) => {
    const doc = (await call('GET', '/docs/json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/status-lists', '/status-lists/{list_id}']));
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', name: 'x-api-key' });
  });

  test('gives every status list operation its summary, security and error responses', async ({ harness: { call } }) => {
    const paths: Record<string, Record<string, Operation>> = (await call('GET', '/docs/json')).body.paths;
    const outline = (operation: Operation | undefined) => ({
      summary: typeof operation?.summary,
      tags: operation?.tags,
      security: operation?.security,
      statuses: Object.keys(operation?.responses ?? {}).sort(),
    });
    const apiKey = [{ apiKey: [] }];
    const tags = ['status lists'];
    expect(outline(paths['/status-lists']?.post)).toEqual({
      summary: 'string',
      tags,
      security: apiKey,
      statuses: ['201', '400', '401', '409', '413', '415'],
    });
    expect(outline(paths['/status-lists/{list_id}']?.patch)).toEqual({
      summary: 'string',
      tags,
      security: apiKey,
      statuses: ['200', '400', '401', '404', '409', '413', '415'],
    });
    expect(outline(paths['/status-lists/{list_id}']?.get)).toEqual({
      summary: 'string',
      tags,
      security: [],
      statuses: ['200', '304', '400', '404', '406', '501'],
    });
    expect(findUndocumentedOperations({ paths })).toEqual([]);
    // The CORS preflight is transport, not an operation: the document leaves it out.
    expect(paths['/status-lists/{list_id}']?.options).toBeUndefined();
  });
});
