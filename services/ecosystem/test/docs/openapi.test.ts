import { describe, expect } from 'vitest';
import { findUndocumentedOperations } from '@tessera/service-kit/testing';
import { ecosystemTest as test } from '../support/fixtures.js';

describe('OpenAPI document', () => {
  test('gives every operation its summary, security and error responses', async ({ harness: { call } }) => {
    const document = (await call('GET', '/docs/json')).body;
    expect(Object.keys(document.paths).length).toBeGreaterThanOrEqual(18);
    expect(findUndocumentedOperations(document)).toEqual([]);
  });

  test('documents the trust registry routes with their bodies', async ({ harness: { call } }) => {
    const paths = (await call('GET', '/docs/json')).body.paths;
    const entities = '/v1/ecosystem/{ecosystemId}/trusted-entities';
    expect(Object.keys(paths[entities]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${entities}/{entityId}`]).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(paths[`${entities}/{entityId}/certificates`])).toEqual(['post']);
    expect(Object.keys(paths[`${entities}/{entityId}/certificates/{certificateId}`])).toEqual(['delete']);
    expect(Object.keys(paths[`${entities}/{entityId}/status`])).toEqual(['post']);
    expect(Object.keys(paths[`${entities}/{entityId}/history`])).toEqual(['get']);
    expect(Object.keys(paths['/v1/ecosystem/{ecosystemId}/trust-policy']).sort()).toEqual(['get', 'put']);
    expect(Object.keys(paths['/v1/ecosystem/{ecosystemId}/trust-list/visibility'])).toEqual(['get', 'put']);
    expect(paths[entities].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'role', 'certificates']),
    );
    expect(paths[`${entities}/{entityId}/status`].post.responses).toHaveProperty('409');
  });

  test('declares bearer security on the management routes and none on health', async ({ harness: { call } }) => {
    const document = (await call('GET', '/docs/json')).body;
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/v1/intent/{intentId}'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/health/ready'].get.security).toEqual([]);
  });
});
