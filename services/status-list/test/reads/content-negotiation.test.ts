import { describe, expect, it } from 'vitest';
import { acceptsStatusList, chooseContentEncoding } from '../../src/presenters/content-negotiation.js';

describe('acceptsStatusList', () => {
  it('admits the media type itself, application/* and */*', () => {
    for (const accept of [
      'application/statuslist+jwt',
      '*/*',
      'application/*',
      'text/html, */*;q=0.1',
      'APPLICATION/STATUSLIST+JWT',
    ]) {
      expect(acceptsStatusList(accept), accept).toBe(true);
    }
  });

  it('refuses everything else, and a q=0', () => {
    for (const accept of ['application/json', 'text/html', 'application/statuslist+jwt;q=0']) {
      expect(acceptsStatusList(accept), accept).toBe(false);
    }
  });

  it('answers the same when a value is asked again (memoised) and for values too long to remember', () => {
    expect(acceptsStatusList('application/json')).toBe(false);
    expect(acceptsStatusList('application/json')).toBe(false);
    const long = `${'text/x-a, '.repeat(40)}application/statuslist+jwt`;
    expect(acceptsStatusList(long)).toBe(true);
    expect(acceptsStatusList(long)).toBe(true);
  });
});

describe('chooseContentEncoding', () => {
  it('sends the body as it is without Accept-Encoding, or when identity is what the client wants', () => {
    for (const header of [undefined, '', 'identity', 'compress', 'gzip;q=0, identity']) {
      expect(chooseContentEncoding(header), String(header)).toBeUndefined();
    }
  });

  it("takes the client's highest q-value, then the client's order, among br, gzip and deflate", () => {
    expect(chooseContentEncoding('gzip')).toBe('gzip');
    expect(chooseContentEncoding('gzip, deflate, br')).toBe('gzip');
    expect(chooseContentEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseContentEncoding('deflate')).toBe('deflate');
    expect(chooseContentEncoding('br')).toBe('br');
    expect(chooseContentEncoding('*')).toBe('br');
    expect(chooseContentEncoding('GZIP')).toBe('gzip');
  });

  it('reads x-gzip as gzip (RFC 9110 §8.4.1.3)', () => {
    expect(chooseContentEncoding('x-gzip')).toBe('gzip');
  });

  it('sends the body as it is when nothing acceptable is offered', () => {
    expect(chooseContentEncoding('identity;q=0')).toBeUndefined();
    expect(chooseContentEncoding('*;q=0')).toBeUndefined();
  });
});
