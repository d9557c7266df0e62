// The protected header of a COSE_Sign1 is decoded strictly every time it could be refused,
// however often the same bytes were seen before (cose-sign1.ts keeps decoded headers).
import { describe, expect, it } from 'vitest';
import { coseSign1Of } from '../../src/verification/cose-sign1.js';

const members = (protectedHex: string, unprotectedHeader = new Map<unknown, unknown>()) => ({
  protectedBytes: Buffer.from(protectedHex, 'hex'),
  unprotectedHeader,
  payload: new Uint8Array([1]),
  signature: new Uint8Array([2]),
});

describe('COSE_Sign1 protected header', () => {
  it('reads {1: -7} the same on every presentation, each caller getting its own map', () => {
    const first = coseSign1Of(members('a10126'));
    expect(first.protectedHeader).toEqual(new Map([[1, -7]]));
    first.protectedHeader.set(1, -35);
    const second = coseSign1Of(members('a10126'));
    expect(second.protectedHeader).toEqual(new Map([[1, -7]]));
  });

  it('refuses a repeated label and trailing bytes every time, not only the first', () => {
    for (let round = 0; round < 3; round++) {
      expect(() => coseSign1Of(members('a201260126'))).toThrow(/protected header is not one well-formed CBOR item/);
      expect(() => coseSign1Of(members('a1012600'))).toThrow(/protected header is not one well-formed CBOR item/);
    }
  });

  it('refuses a label in both buckets after the same header was accepted alone', () => {
    expect(coseSign1Of(members('a10126')).protectedHeader.get(1)).toBe(-7);
    expect(() => coseSign1Of(members('a10126', new Map([[1, -7]])))).toThrow(
      /in both the protected and the unprotected/,
    );
  });
});
