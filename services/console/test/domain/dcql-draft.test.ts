import { describe, expect, it } from 'vitest';
import { checkDcqlDraft, EXAMPLE_QUERY, QUERY_POINTER, walletQueryOf } from '../../src/domain/dcql-draft.js';
import { requestedCredentials } from '../../src/domain/requested-credentials.js';

describe("the template editor's check as you type", () => {
  it('accepts the example query, and the wallet receives it without `combine`', () => {
    const check = checkDcqlDraft(JSON.stringify(EXAMPLE_QUERY));
    expect(check.problems).toEqual([]);
    expect(walletQueryOf(check.query!)).not.toHaveProperty('combine');
  });

  it('says where JSON stops being JSON', () => {
    const check = checkDcqlDraft('{ "combine": "all", ');
    expect(check.query).toBeUndefined();
    expect(check.problems).toEqual([{ path: QUERY_POINTER, message: expect.stringMatching(/^Not JSON yet: /) }]);
  });

  it('names each DCQL problem at its path under the template’s query, as the verifier reports them', () => {
    const check = checkDcqlDraft(
      JSON.stringify({ credentials: [{ id: 'age', format: 'dc+sd-jwt', meta: { vct_values: 'one' } }] }),
    );
    expect(check.problems).toContainEqual({
      path: `${QUERY_POINTER}/combine`,
      message: expect.stringContaining('"all"'),
    });
    expect(check.problems.some((problem) => problem.path.startsWith(`${QUERY_POINTER}/credentials/0`))).toBe(true);
    expect(checkDcqlDraft('[1]').problems).toEqual([
      { path: QUERY_POINTER, message: 'The query must be a JSON object.' },
    ]);
  });
});

describe('what the wallet shows for a query', () => {
  it('lists each credential with its type, claims (those kept marked), holder binding and the alternatives', () => {
    expect(
      requestedCredentials({
        credentials: [
          {
            id: 'pid',
            format: 'dc+sd-jwt',
            meta: { vct_values: ['https://example.eu/pid'] },
            claims: [{ path: ['address', 'postal_code'], intent_to_retain: true }, { path: ['given_name'] }],
          },
          {
            id: 'mdl',
            format: 'mso_mdoc',
            meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
            require_cryptographic_holder_binding: false,
          },
        ],
        credential_sets: [{ options: [['pid'], ['mdl']] }],
      }),
    ).toEqual({
      credentials: [
        {
          id: 'pid',
          format: 'dc+sd-jwt',
          types: ['https://example.eu/pid'],
          claims: [
            { path: 'address › postal_code', retained: true },
            { path: 'given_name', retained: false },
          ],
          holderBinding: true,
        },
        { id: 'mdl', format: 'mso_mdoc', types: ['org.iso.18013.5.1.mDL'], claims: [], holderBinding: false },
      ],
      sets: [{ options: [['pid'], ['mdl']], required: true }],
    });
    expect(requestedCredentials(undefined)).toEqual({ credentials: [], sets: [] });
  });
});
