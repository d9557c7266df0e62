import { describe, expect, it } from 'vitest';
import { readDcApiResponse, readDecryptedResponse, readFormResponse } from '../../src/domain/authorization-response.js';

describe('readFormResponse', () => {
  it('direct_post: vp_token (JSON object string) and state', () => {
    expect(readFormResponse({ vp_token: '{"pid":["x"]}', state: 's' }, false)).toEqual({
      kind: 'vp_token',
      vpToken: { pid: ['x'] },
      state: 's',
    });
    expect(readFormResponse({ vp_token: '{"pid":["x"]}' }, false).kind).toBe('invalid');
    expect(readFormResponse({ vp_token: '[1]', state: 's' }, false).kind).toBe('invalid');
    expect(readFormResponse({ vp_token: '{', state: 's' }, false).kind).toBe('invalid');
    expect(readFormResponse({ response: 'a.b.c.d.e', state: 's' }, false).kind).toBe('invalid');
  });

  it('direct_post.jwt: only response, never a plain vp_token', () => {
    expect(readFormResponse({ response: 'a.b.c.d.e' }, true)).toEqual({ kind: 'encrypted', jwe: 'a.b.c.d.e' });
    expect(readFormResponse({ vp_token: '{"pid":["x"]}', state: 's' }, true).kind).toBe('invalid');
  });

  it('wallet errors in either mode, with a readable code only; the free-text description is not kept', () => {
    expect(readFormResponse({ error: 'access_denied', error_description: 'no', state: 's' }, true)).toEqual({
      kind: 'error',
      error: 'access_denied',
      state: 's',
    });
    expect(readFormResponse({ error: 'access_denied', error_description: 7 }, false).kind).toBe('invalid');
    expect(readFormResponse({ error: 'bad"quote' }, false).kind).toBe('invalid');
    expect(readFormResponse({ error: 'x'.repeat(201) }, false).kind).toBe('invalid');
  });
});

describe('readDecryptedResponse', () => {
  it('takes vp_token as an object or its JSON string, and errors', () => {
    expect(readDecryptedResponse({ vp_token: { pid: ['x'] }, state: 's' })).toEqual({
      kind: 'vp_token',
      vpToken: { pid: ['x'] },
      state: 's',
    });
    expect(readDecryptedResponse({ vp_token: '{"pid":["x"]}' })).toEqual({ kind: 'vp_token', vpToken: { pid: ['x'] } });
    expect(readDecryptedResponse({ vp_token: ['x'] }).kind).toBe('invalid');
    expect(readDecryptedResponse({ vp_token: { pid: ['x'] }, state: 1 }).kind).toBe('invalid');
    expect(readDecryptedResponse({ error: 'access_denied' }).kind).toBe('error');
  });
});

describe('readDcApiResponse', () => {
  it('exactly one of vp_token, id_token (alias), response or error', () => {
    expect(readDcApiResponse({ vp_token: { pid: ['x'] } })).toEqual({ kind: 'vp_token', vpToken: { pid: ['x'] } });
    expect(readDcApiResponse({ id_token: { mdl: ['x'] } })).toEqual({ kind: 'vp_token', vpToken: { mdl: ['x'] } });
    expect(readDcApiResponse({ response: 'jwe' })).toEqual({ kind: 'encrypted', jwe: 'jwe' });
    expect(readDcApiResponse({ error: 'access_denied' }).kind).toBe('error');
    for (const bad of [{}, { vp_token: 'x' }, { vp_token: {}, id_token: {} }, { response: 1 }, { other: 1 }])
      expect(readDcApiResponse(bad).kind).toBe('invalid');
  });
});
