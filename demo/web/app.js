// The reference relying-party page: starts a presentation through its own backend,
// shows the request (QR code, same-device link, or the browser's Digital Credentials
// API), follows the session over server-sent events and shows the result.
// Plain ES module, no build step; the backend holds the access token.

const $ = (id) => document.getElementById(id);
const TERMINAL = new Set(['ResponseVerified', 'Error']);
/** What describes the credential rather than its holder (JWT and SD-JWT VC registered claims): shown apart from the claims. */
const CREDENTIAL_FIELDS = new Set(['iss', 'vct', 'iat', 'nbf', 'exp', 'status', 'cnf']);
/** What each Digital Credentials API protocol is, in a sentence a person reads. */
const PROTOCOL_TEXT = {
  'openid4vp-v1-signed': 'OpenID4VP, signed request',
  'openid4vp-v1-unsigned': 'OpenID4VP, unsigned request',
  'openid4vp-v1-multisigned': 'OpenID4VP, request signed for several trust frameworks',
  'org-iso-mdoc': 'ISO/IEC 18013-7 Annex C, for mdocs',
};
const STATE_TEXT = {
  RequestCreated: 'Waiting for your wallet…',
  RequestUriRetrieved: 'Your wallet has the request. Waiting for its answer…',
  ResponseVerified: 'Verified.',
  Error: 'The presentation was not accepted.',
};

/** The event stream of the session on screen (one at a time). */
let events;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { message: text };
  }
  return { ok: response.ok, status: response.status, body: json };
}

function setStatus(text, state) {
  const status = $('status');
  status.textContent = text;
  status.dataset.state = state;
}

function reset() {
  events?.close();
  events = undefined;
  for (const id of [
    'request',
    'qr-figure',
    'same-device',
    'request-details',
    'demo-wallet',
    'result',
    'verified',
    'refused',
    'answered-protocol',
  ])
    $(id).hidden = true;
  $('answered-protocol').textContent = '';
  $('claims').replaceChildren();
  $('issuer').textContent = '';
  $('qr-code').removeAttribute('src');
  $('qr-figure').classList.remove('spent');
  $('qr-caption').textContent = 'Scan this code with your wallet app.';
  document.body.removeAttribute('data-session-id');
}

function setBusy(busy) {
  for (const id of ['start-button', 'dc-api-button']) $(id).disabled = busy;
}

/** The request is answered or over: it cannot be used again. */
function retireRequest() {
  $('demo-wallet').hidden = true;
  $('same-device').hidden = true;
  $('qr-figure').classList.add('spent');
  $('qr-caption').textContent = 'This request is closed: start a new one to present again.';
}

function showRefusal(error) {
  retireRequest();
  $('result').hidden = false;
  $('refused').hidden = false;
  $('error-code').textContent = error?.code ?? 'ERROR';
  $('error-message').textContent = error?.message ?? 'Something went wrong.';
  setStatus(STATE_TEXT.Error, 'Error');
  $('result').focus();
}

function showClaims(result) {
  retireRequest();
  const list = $('claims');
  list.replaceChildren();
  for (const presentation of result.presentations ?? []) {
    for (const [name, value] of claimEntries(presentation)) {
      if (CREDENTIAL_FIELDS.has(name)) continue;
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      detail.textContent = typeof value === 'string' ? value : JSON.stringify(value);
      detail.dataset.claim = name;
      list.append(term, detail);
    }
    const type = presentation.vct ?? presentation.doctype;
    const validUntil = presentation.validUntil
      ? `, valid until ${new Date(presentation.validUntil).toLocaleDateString()}`
      : '';
    const trustedThrough = presentation.trustedEntityName ? `, trusted through ${presentation.trustedEntityName}` : '';
    $('issuer').textContent = `Credential ${type}, issued by ${presentation.issuer}${validUntil}${trustedThrough}.`;
  }
  $('result').hidden = false;
  $('verified').hidden = false;
  setStatus(STATE_TEXT.ResponseVerified, 'ResponseVerified');
  $('result').focus();
}

/** A presentation's claims as name and value: an mdoc's are per namespace, shown by element name. */
function claimEntries(presentation) {
  const claims = Object.entries(presentation.claims ?? {});
  if (presentation.format !== 'mso_mdoc') return claims;
  return claims.flatMap(([, elements]) => Object.entries(elements ?? {}));
}

/** Shows which protocol the browser's wallet answered with (the Digital Credentials API flow). */
function showProtocol(protocol) {
  $('answered-protocol').textContent =
    `Your browser's wallet answered over ${protocol} (${PROTOCOL_TEXT[protocol] ?? 'unknown protocol'}).`;
  $('answered-protocol').dataset.protocol = protocol;
  $('answered-protocol').hidden = false;
}

/** Reads what a verified session proved (through the backend) and shows it, or why it cannot. */
async function showResult(read) {
  const answer = await read();
  if (answer.ok) showClaims(answer.body.data);
  else showRefusal(answer.body);
}

/**
 * Follows the session's state over server-sent events until it ends. A same-device
 * session's result is not read here: the wallet brings the browser back with a
 * response_code, and the page reads it then (concludeSameDevice).
 */
function follow(sessionId, { sameDevice = false } = {}) {
  events?.close();
  events = new EventSource(`/api/presentations/${sessionId}/events`);
  const stream = events;
  stream.addEventListener('state', (event) => {
    const update = JSON.parse(event.data);
    if (!TERMINAL.has(update.state)) {
      setStatus(STATE_TEXT[update.state] ?? update.state, update.state);
      return;
    }
    // Terminal: the stream ends here; close it so EventSource does not reconnect.
    stream.close();
    if (update.state !== 'ResponseVerified') showRefusal(update.error);
    else if (sameDevice)
      setStatus('Your wallet answered; it brings you back to this page with the result.', 'RequestUriRetrieved');
    else void showResult(() => api('GET', `/api/presentations/${sessionId}/result`));
  });
  stream.addEventListener('error', () => {
    // EventSource reconnects by itself (sending Last-Event-ID); only a refused stream is final.
    if (stream.readyState === EventSource.CLOSED && $('result').hidden)
      setStatus('Lost the connection to the page’s backend. Start again.', 'Error');
  });
}

/** Starts a session through the backend; answers its data, or shows the refusal and answers undefined. */
async function start(flow) {
  reset();
  const request = new FormData($('start-form')).get('request');
  const created = await api('POST', '/api/presentations', { request, flow });
  if (!created.ok) {
    showRefusal(created.body);
    return undefined;
  }
  const session = created.body.data;
  document.body.dataset.sessionId = session.id;
  return session;
}

function showRequest(session) {
  $('request').hidden = false;
  const uri = session.authorizationRequestUri;
  $('request-uri').textContent = uri;
  $('request-uri').href = uri;
  $('request-details').hidden = false;
  if (session.flow === 'same-device') {
    $('same-device-link').href = uri;
    $('same-device').hidden = false;
  } else {
    $('qr-code').src = session.qrCodeUrl;
    $('qr-code').alt = 'QR code of the presentation request; the same request is below as a link.';
    $('qr-code').dataset.requestUri = uri;
    $('qr-figure').hidden = false;
  }
  $('demo-wallet').hidden = false;
  setStatus(STATE_TEXT.RequestCreated, 'RequestCreated');
}

async function startWithRequestUri(event) {
  event.preventDefault();
  setBusy(true);
  try {
    const flow = new FormData($('start-form')).get('flow');
    const session = await start(flow);
    if (!session) return;
    showRequest(session);
    follow(session.id, { sameDevice: flow === 'same-device' });
  } finally {
    setBusy(false);
  }
}

/**
 * The Digital Credentials API flow: the browser asks a wallet with every request the
 * session offers (one per protocol, in the page's order), and the page forwards the
 * answer with the protocol the wallet used and the page's origin.
 */
async function startWithBrowserWallet() {
  setBusy(true);
  try {
    const session = await start('dc-api');
    if (!session) return;
    follow(session.id);
    setStatus('Asking your browser for a credential…', 'RequestCreated');
    const offered = session.dcApiRequests.map((request) => request.protocol);
    let credential;
    try {
      if (!navigator.credentials?.get) throw new Error('this browser has no Credential Management API');
      credential = await navigator.credentials.get({ digital: { requests: session.dcApiRequests } });
    } catch (error) {
      events?.close();
      showRefusal({
        code: 'BROWSER_WALLET_UNAVAILABLE',
        message: `The browser did not return a credential: ${error?.message ?? error}`,
      });
      return;
    }
    if (!credential || !offered.includes(credential.protocol)) {
      events?.close();
      showRefusal({
        code: 'BROWSER_WALLET_UNAVAILABLE',
        message: 'The browser returned no credential for this request.',
      });
      return;
    }
    showProtocol(credential.protocol);
    setStatus('Checking the answer…', 'RequestUriRetrieved');
    const forwarded = await api('POST', `/api/presentations/${session.id}/dc-api-response`, {
      response: credential.data,
      protocol: credential.protocol,
      origin: location.origin,
    });
    // A verified or failed verification arrives over the event stream; a refused forward leaves the session open.
    if (!forwarded.ok) {
      events?.close();
      showRefusal(forwarded.body);
    }
  } finally {
    setBusy(false);
  }
}

/** Demo only: the bundled wallet answers; for a same-device session the page follows its redirect as the wallet app would. */
async function answerWithDemoWallet() {
  const sessionId = document.body.dataset.sessionId;
  if (!sessionId) return;
  $('demo-wallet-button').disabled = true;
  try {
    const answered = await api('POST', `/api/presentations/${sessionId}/demo-wallet`);
    if (!answered.ok) return showRefusal(answered.body);
    const redirect = answered.body.data.verifierAnswer?.redirect_uri;
    if (redirect) location.assign(redirect);
  } finally {
    $('demo-wallet-button').disabled = false;
  }
}

/** Back from the wallet app (same-device): read this browser's result with the code the redirect carried. */
async function concludeSameDevice(responseCode) {
  // The code is for this backend only: drop it from the address bar and history.
  history.replaceState(null, '', location.pathname);
  setStatus('Back from your wallet. Checking the result…', 'RequestUriRetrieved');
  await showResult(() => api('GET', `/api/same-device-result?responseCode=${encodeURIComponent(responseCode)}`));
}

async function setRevoked(event) {
  const revoked = event.target.checked;
  const answer = await api('PUT', '/api/demo-credential/status', { revoked });
  if (!answer.ok) {
    event.target.checked = !revoked;
    showRefusal(answer.body);
  }
}

async function showRevoked() {
  const answer = await api('GET', '/api/demo-credential/status');
  if (answer.ok) $('revoked').checked = answer.body.data.revoked;
}

$('start-form').addEventListener('submit', startWithRequestUri);
$('dc-api-button').addEventListener('click', startWithBrowserWallet);
$('demo-wallet-button').addEventListener('click', answerWithDemoWallet);
$('revoked').addEventListener('change', setRevoked);
if (window.matchMedia('(hover: none) and (pointer: coarse)').matches) {
  // On a phone the wallet is on this device: offer the link first.
  document.querySelector('input[name="flow"][value="same-device"]').checked = true;
}
void showRevoked();
const responseCode = new URLSearchParams(location.search).get('response_code');
if (responseCode) void concludeSameDevice(responseCode);
