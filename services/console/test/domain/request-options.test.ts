import { describe, expect, it } from 'vitest';
import { parseTransactionData, requestSignerOf } from '../../src/domain/request-options.js';

describe("a new request's advanced options, as the form sends them", () => {
  it('transaction data: empty is none; a JSON array of objects is sent as written; anything else is a problem at its field', () => {
    expect(parseTransactionData('  ')).toEqual({});
    const entries = [{ type: 'payment', credential_ids: ['pid'], amount: '12.00' }];
    expect(parseTransactionData(JSON.stringify(entries))).toEqual({ value: entries });
    for (const text of ['[{ type: payment }]', '{"type":"payment"}', '[1, 2]', '[[]]', '[null]', '"x"']) {
      const parsed = parseTransactionData(text);
      expect(parsed, text).toEqual({ problem: { path: '/transactionData', message: expect.any(String) } });
    }
  });

  it('the signer: none chosen is the default (nothing sent); a prefix goes with its method only', () => {
    expect(requestSignerOf('', 'x509_san_dns')).toBeUndefined();
    expect(requestSignerOf('DID', '')).toEqual({ method: 'DID' });
    expect(requestSignerOf('X509_P256', 'x509_san_dns')).toEqual({
      method: 'X509_P256',
      clientIdPrefix: 'x509_san_dns',
    });
  });
});
