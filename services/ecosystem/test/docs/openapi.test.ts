import { describe, expect } from 'vitest';
import { findUndocumentedOperations } from '@tessera/service-kit/testing';
import { ecosystemTest as test } from '../support/fixtures.js';

describe('OpenAPI document', () => {
  test('gives every operation its summary, security and error responses', async ({ harness: { call } }) => {
    const document = (await call('GET', '/docs/json')).body;
    expect(Object.keys(document.paths).length).toBeGreaterThanOrEqual(18);
    expect(findUndocumentedOperations(document)).toEqual([]);
  });

  test('declares bearer security on the management routes and none on health', async ({ harness: { call } }) => {
    const document = (await call('GET', '/docs/json')).body;
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/v1/intent/{intentId}'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/health/ready'].get.security).toEqual([]);
  });
});
