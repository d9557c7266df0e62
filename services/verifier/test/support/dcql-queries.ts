/** DCQL queries used across tests: an SD-JWT VC and an mdoc query (with the spec's `combine`). */
export function sdJwtQuery() {
  return {
    combine: 'all',
    credentials: [
      {
        id: 'pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://example.eu/pid'] },
        claims: [{ path: ['given_name'] }, { path: ['family_name'] }],
      },
    ],
  };
}

export function mdocQuery() {
  return {
    combine: 'all',
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
        claims: [{ path: ['org.iso.18013.5.1', 'family_name'], intent_to_retain: false }],
      },
    ],
  };
}

export function bothQuery() {
  return {
    combine: 'all',
    credentials: [...sdJwtQuery().credentials, ...mdocQuery().credentials],
    credential_sets: [{ options: [['pid'], ['mdl']], required: true }],
  };
}
