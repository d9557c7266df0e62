// The steps of one whole verification over HTTP, each answer checked: the relying party
// creates a direct_post session, the wallet fetches the request object and answers, the
// relying party reads the result. Shared by the hot-path and the purge benchmarks.
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The relying party creates a direct_post session for `dcql` at verifier `verifierId`; the wallet will find request_uri in authorizationRequestUri. */
export function createSessionStep(bench, { dcql, verifierId }) {
  const request = {
    method: 'POST',
    path: `${bench.managementPath}/presentation?verifierId=${verifierId}`,
    headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dcql, responseMode: 'direct_post', expiresInSeconds: 3600 }),
  };
  return {
    name: 'create session',
    request: () => request,
    check: (status, text, context) => {
      if (status !== 201) return `${status} ${text.slice(0, 300)}`;
      const session = JSON.parse(text).data;
      const requestUri = new URL(session.authorizationRequestUri).searchParams.get('request_uri');
      if (!requestUri) return `no request_uri in ${session.authorizationRequestUri}`;
      context.session = session;
      context.requestPath = new URL(requestUri).pathname;
      return undefined;
    },
  };
}

/** The wallet fetches the request object (GET request_uri) and reads its payload. */
export const fetchRequestObjectStep = {
  name: 'fetch request object',
  request: (context) => ({ method: 'GET', path: context.requestPath }),
  check: (status, text, context) => {
    if (status !== 200) return `${status} ${text.slice(0, 300)}`;
    const payload = JSON.parse(Buffer.from(text.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const { session } = context;
    if (
      payload.nonce !== session.nonce ||
      payload.state !== session.payloadState ||
      payload.response_mode !== 'direct_post' ||
      typeof payload.response_uri !== 'string'
    ) {
      return `the request object does not match its session: ${JSON.stringify({ nonce: payload.nonce, state: payload.state, response_mode: payload.response_mode })}`;
    }
    context.request = payload;
    context.signingInputLength = text.lastIndexOf('.');
    return undefined;
  },
};

/** The wallet posts the answer `build(context)` returns ({ path, body }) to response_uri; 200 `{}` means verified. */
export function directPostStep(build) {
  return {
    name: 'answer (direct_post)',
    request: (context) => {
      const { path, body } = build(context);
      return { method: 'POST', path, headers: FORM, body };
    },
    check: (status, text) => (status === 200 && text === '{}' ? undefined : `${status} ${text.slice(0, 300)}`),
  };
}

/** The relying party reads what the session proved (409 unless ResponseVerified): the PID's names. */
export function readResultStep(bench) {
  return {
    name: 'read result',
    request: (context) => ({
      method: 'GET',
      path: `${bench.managementPath}/verifier-presentation-response?verificationPresentationId=${context.session.id}`,
      headers: { authorization: `Bearer ${bench.token}` },
    }),
    check: (status, text) => {
      if (status !== 200) return `${status} ${text.slice(0, 300)}`;
      const result = JSON.parse(text).data;
      const claims = result.presentations?.[0]?.claims;
      if (result.state !== 'ResponseVerified' || claims?.given_name !== 'Erika' || claims?.family_name !== 'Mustermann')
        return `not the verified names: ${text.slice(0, 300)}`;
      return undefined;
    },
  };
}
