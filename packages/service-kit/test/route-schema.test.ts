import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { routeSchema } from '../src/index.js';
import { findUndocumentedOperations } from '../src/testing/index.js';

const Item = Type.Object({ id: Type.String() });

describe('routeSchema', () => {
  it('declares summary, tags, bearer security and the implied and listed errors with the platform body', () => {
    const schema = routeSchema(
      { summary: 'Create an item', tags: ['items'], security: 'bearer', errors: [404, 409] },
      { params: Type.Object({ id: Type.String() }), body: Item, response: { 201: Item } },
    ) as Record<string, unknown> & { response: Record<number, unknown> };
    expect(schema.summary).toBe('Create an item');
    expect(schema.tags).toEqual(['items']);
    expect(schema.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(schema.response).map(Number).sort()).toEqual([201, 400, 401, 403, 404, 409]);
    expect(schema.response[404]).toEqual({ $ref: 'ErrorBody#' });
    expect(schema.response[201]).toBe(Item);
  });

  it('declares no security, 401 or 403 for a public route, and no 400 when it takes no input', () => {
    const schema = routeSchema(
      { summary: 'Read', tags: ['x'], security: 'public' },
      { response: { 200: Item } },
    ) as unknown as {
      security: unknown[];
      response: Record<number, unknown>;
    };
    expect(schema.security).toEqual([]);
    expect(Object.keys(schema.response)).toEqual(['200']);
  });

  it('uses the OAuth error body for wallet endpoints and the API key scheme for writes', () => {
    const wallet = routeSchema(
      { summary: 'Wallet', tags: ['wallet'], security: 'public', errorBody: 'oauth', errors: [429] },
      { body: Item, response: { 200: Item } },
    ) as { response: Record<number, { properties?: Record<string, unknown> }> };
    expect(Object.keys(wallet.response[400]!.properties ?? {})).toEqual(['error', 'error_description']);
    const write = routeSchema(
      { summary: 'Write', tags: ['x'], security: 'apiKey' },
      { body: Item, response: { 201: Item } },
    ) as unknown as { security: unknown[]; response: Record<number, unknown> };
    expect(write.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(write.response).sort()).toEqual(['201', '400', '401']);
  });
});

describe('findUndocumentedOperations', () => {
  it('names each operation without a summary, a security statement, error responses or a 401 when secured', () => {
    const problems = findUndocumentedOperations({
      paths: {
        '/ok': { get: { summary: 'Read', security: [], responses: { 200: {}, 404: {} } } },
        '/bare': { post: { responses: { 201: {} } } },
        '/secured': { put: { summary: 'Write', security: [{ bearer: [] }], responses: { 200: {}, 400: {} } } },
      },
    });
    expect(problems).toEqual([
      'POST /bare: no summary',
      'POST /bare: no security requirement (use [] for a public route)',
      'POST /bare: no error response',
      'PUT /secured: secured but no 401',
    ]);
  });
});
