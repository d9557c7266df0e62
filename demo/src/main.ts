// `npm run demo`: walks the whole Tessera story against running services (start them
// with `npm start` in another terminal): a status list, an ecosystem whose intent maps
// to a verification template, an intent-based presentation request shown as a QR code,
// a presentation by the bundled demo wallet, the verified claims; then the ecosystem's
// trust registry: the lead registers the issuer and makes the ecosystem's list the
// trust, a presentation names the trusted entity, a suspension refuses the next one,
// a reactivation restores it; finally a revocation, and the next presentation
// rejected as revoked.
import { randomBytes, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import qrcode from 'qrcode-terminal';
import { mintDevToken } from '@tessera/service-kit';
import { callJson, waitUntilUp } from './http.js';
import { createDemoIssuer, issueSdJwtVc, publicJwkOf, signStatusList } from './issuer.js';
import { bold, green, printDetail, printStep, red } from './print.js';
import { fetchAuthorizationRequest, postResponse, presentSdJwtVc } from './wallet.js';

const VERIFIER = process.env.DEMO_VERIFIER_URL ?? 'http://localhost:3001';
const ECOSYSTEM = process.env.DEMO_ECOSYSTEM_URL ?? 'http://localhost:3002';
const STATUS_LIST = process.env.DEMO_STATUS_LIST_URL ?? 'http://localhost:3003';
const DATA_DIR = resolve(process.env.DATA_DIR ?? join(process.cwd(), '.data'));
const VCT = 'https://credentials.demo.tessera.example/age';
const STATUS_INDEX = 3;

function statusListApiKey(): string {
  if (process.env.STATUS_LIST_API_KEY) return process.env.STATUS_LIST_API_KEY;
  const secrets = JSON.parse(readFileSync(join(DATA_DIR, 'dev-secrets.json'), 'utf8')) as Record<string, string>;
  if (!secrets.STATUS_LIST_API_KEY) throw new Error('no STATUS_LIST_API_KEY: set it, or run the demo against `npm start`');
  return secrets.STATUS_LIST_API_KEY;
}

async function main(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const orgId = `demo-org-${run}`;
  const ownerEmail = `owner-${run}@demo.tessera.example`;
  const org = (path: string) => `${VERIFIER}/v1/orgs/${orgId}/oid4vp/${path}`;

  printStep('Waiting for the services');
  await Promise.all([VERIFIER, ECOSYSTEM, STATUS_LIST].map((base) => waitUntilUp(`${base}/health/ready`)));
  const admin = await mintDevToken(DATA_DIR, { sub: 'demo-admin', email: 'admin@demo.tessera.example', platformAdmin: true });
  const owner = await mintDevToken(DATA_DIR, { sub: `demo-owner-${run}`, email: ownerEmail, orgRoles: { [orgId]: ['owner', 'admin', 'verifier'] } });
  printDetail('organisation', orgId);

  printStep('Issuer publishes a status list (1 bit per credential, all valid)');
  const issuer = await createDemoIssuer();
  const apiKey = statusListApiKey();
  const listId = webcrypto.randomUUID();
  const listUri = `${STATUS_LIST}/status-lists/${listId}`;
  const statuses = new Array<number>(16).fill(0);
  await callJson('POST', `${STATUS_LIST}/status-lists`, { apiKey, body: { id: listId, jwt: await signStatusList(issuer, { uri: listUri, statuses, ttlSeconds: 1 }) } });
  printDetail('status list', listUri);

  printStep('Platform admin invites the organisation to lead an ecosystem; it forms one');
  await callJson('PUT', `${ECOSYSTEM}/v1/organisations/${orgId}`, { token: owner, body: { name: `Demo City Council ${run}` } });
  await callJson('POST', `${ECOSYSTEM}/v1/invitations`, { token: admin, body: { email: ownerEmail } });
  const ecosystem = await callJson('POST', `${ECOSYSTEM}/v1/ecosystem/${orgId}/create`, { token: owner, body: { name: `Demo Ecosystem ${run}`, description: 'Age checks for local shops' } });
  const ecosystemId = ecosystem.data.id as string;
  const intent = await callJson('POST', `${ECOSYSTEM}/v1/intent/ecosystem/${ecosystemId}`, { token: owner, body: { name: 'age-verification', description: 'Prove you are over 18' } });
  printDetail('ecosystem', ecosystemId);
  printDetail('intent', `age-verification (${intent.data.id})`);

  printStep('The organisation sets up a verifier, a verification template and trusts the issuer');
  await callJson('POST', org('verifier'), { token: owner, body: { verifierId: 'demo-shop', clientMetadata: { client_name: 'Demo Shop' } } });
  const template = await callJson('POST', org('verification-template'), {
    token: owner,
    body: {
      name: 'Over 18',
      signerOption: 'X509_P256',
      templateJson: { dcql: { query: { combine: 'all', credentials: [{ id: 'age', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['age_over_18'] }, { path: ['given_name'] }] }] } } },
    },
  });
  await callJson('POST', `${ECOSYSTEM}/v1/intent/${intent.data.id}/template`, { token: owner, body: { templateId: template.data.id, role: 'verifier', description: 'What a shop asks for' } });
  await callJson('POST', org('trust-anchors'), { token: owner, body: { certificatePem: issuer.caPem, label: issuer.name } });
  printDetail('template', `${template.data.id} mapped to intent age-verification`);

  printStep('The demo wallet receives a credential (SD-JWT VC, status list entry 3)');
  const holder = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const credential = await issueSdJwtVc(issuer, {
    vct: VCT,
    claims: { given_name: 'Alex', family_name: 'Doe', age_over_18: true, birthdate: '1990-04-01' },
    holderPublicJwk: await publicJwkOf(holder.publicKey),
    status: { idx: STATUS_INDEX, uri: listUri },
  });
  const platformCa = await (await fetch(`${VERIFIER}/oid4vp/platform-ca.pem`)).text();

  /** An intent-based session, shown as a link and QR code: what a shop's till would display. */
  const requestPresentation = async (label: string) => {
    const created = await callJson('POST', `${org('intent-based-verification-presentation')}?verifierId=demo-shop&ecosystemId=${ecosystemId}`, {
      token: owner,
      body: { intent: 'age-verification', responseMode: 'direct_post' },
    });
    const session = created.data;
    printDetail(`${label} request`, session.authorizationRequestUri);
    qrcode.generate(session.authorizationRequestUri, { small: true }, (code) => process.stdout.write(`${code.replace(/^/gm, '     ')}\n`));
    return session as { id: string; authorizationRequestUri: string };
  };
  /** The demo wallet scans the request, checks it and presents the credential. */
  const answerRequest = async (session: { id: string; authorizationRequestUri: string }) => {
    const request = await fetchAuthorizationRequest(session.authorizationRequestUri, platformCa);
    printDetail('wallet checked the request of', `${request.client_metadata?.client_name ?? request.client_id} (${request.client_id.split(':')[0]})`);
    const answer = await postResponse(request, await presentSdJwtVc({ request, credential, holderKey: holder.privateKey }));
    printDetail('verifier answered the wallet', `${answer.status} ${JSON.stringify(answer.body)}`);
    const record = await callJson('GET', `${org('verifier-presentation')}?id=${session.id}`, { token: owner });
    return { id: session.id, record: record.data };
  };
  const present = async (label: string) => answerRequest(await requestPresentation(label));

  printStep('Intent-based presentation request, shown as a QR code; the wallet presents');
  const first = await present('presentation');
  if (first.record.state !== 'ResponseVerified') throw new Error(`expected ResponseVerified, got ${JSON.stringify(first.record)}`);
  const result = await callJson('GET', `${org('verifier-presentation-response')}?verificationPresentationId=${first.id}`, { token: owner });
  printDetail('session', green(first.record.state));
  printDetail('verified claims', result.data.presentations[0].claims);

  printStep("The lead registers the issuer in the ecosystem's trust registry and makes the list the ecosystem's trust");
  const registry = `${ECOSYSTEM}/v1/ecosystem/${ecosystemId}`;
  const entity = await callJson('POST', `${registry}/trusted-entities`, {
    token: owner,
    body: { name: issuer.name, role: 'issuer', allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: VCT }], certificates: [{ pem: issuer.caPem }] },
  });
  const entityId = entity.data.id as string;
  await callJson('PUT', `${registry}/trust-policy`, { token: owner, body: { policy: 'ecosystem' } });
  printDetail('trusted entity', `${entity.data.name} (${entityId}), issuer of ${VCT}`);
  const listResponse = await fetch(`${registry}/trust-list`, { headers: { authorization: `Bearer ${owner}` } });
  const signedList = await listResponse.text();
  if (!listResponse.ok) throw new Error(`GET trust-list answered ${listResponse.status}: ${signedList.slice(0, 300)}`);
  const [listHeader, listPayload] = signedList.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, any>);
  printDetail('signed trust list', `${listResponse.headers.get('content-type')}, typ ${listHeader!.typ}, sequence ${listPayload!.LoTE.ListAndSchemeInformation.LoTESequenceNumber}`);

  printStep("A presentation verified against the ecosystem's list names the trusted entity");
  const listed = await present('listed');
  if (listed.record.state !== 'ResponseVerified') throw new Error(`expected ResponseVerified, got ${JSON.stringify(listed.record)}`);
  const listedResult = (await callJson('GET', `${org('verifier-presentation-response')}?verificationPresentationId=${listed.id}`, { token: owner })).data.presentations[0];
  printDetail('session', green(listed.record.state));
  printDetail('trusted through', `${listedResult.trustedEntityName} (${listedResult.trustedEntityId}), trust list sequence ${listedResult.trustListSequence}`);
  if (listedResult.trustedEntityId !== entityId) throw new Error(`expected the entity ${entityId} to be named, got ${JSON.stringify(listedResult)}`);

  // A request shown before the suspension and answered after it: the answer is judged by the list as it is then.
  // (A request created while no issuer qualifies is refused at once: 409 NO_TRUSTED_ISSUER.)
  printStep('A shop shows a request; meanwhile the lead suspends the issuer; then the wallet answers');
  const pending = await requestPresentation('pending');
  await callJson('POST', `${registry}/trusted-entities/${entityId}/status`, { token: owner, body: { status: 'suspended', reason: 'Signing key under investigation' } });
  printDetail('trusted entity', red('suspended'));
  // Replicas learn of the change from the registry's event; the bound is one second.
  await new Promise((resolveWait) => setTimeout(resolveWait, 1000));
  const suspended = await answerRequest(pending);
  printDetail('session', red(`${suspended.record.state} ${suspended.record.error?.code ?? ''}`));
  if (suspended.record.state !== 'Error' || suspended.record.error?.code !== 'ISSUER_NOT_TRUSTED') {
    throw new Error(`expected Error ISSUER_NOT_TRUSTED, got ${JSON.stringify(suspended.record)}`);
  }

  printStep('The lead reactivates the issuer');
  await callJson('POST', `${registry}/trusted-entities/${entityId}/status`, { token: owner, body: { status: 'active', reason: 'Investigation closed' } });
  await new Promise((resolveWait) => setTimeout(resolveWait, 1000));
  printDetail('trusted entity', green('active'));

  printStep('The issuer revokes the credential (status list entry 3 → INVALID)');
  statuses[STATUS_INDEX] = 1;
  await callJson('PATCH', `${STATUS_LIST}/status-lists/${listId}`, { apiKey, body: { jwt: await signStatusList(issuer, { uri: listUri, statuses, ttlSeconds: 1 }) } });
  // The list's ttl is 1 s: a verifier may serve its cached copy until then.
  await new Promise((resolveWait) => setTimeout(resolveWait, 1500));

  printStep('The next presentation of the same credential');
  const second = await present('second');
  printDetail('session', red(`${second.record.state} ${second.record.error?.code ?? ''}`));
  if (second.record.state !== 'Error' || second.record.error?.code !== 'CREDENTIAL_REVOKED') {
    throw new Error(`expected Error CREDENTIAL_REVOKED, got ${JSON.stringify(second.record)}`);
  }
  process.stdout.write(`\n${bold(green('Demo complete:'))} verified, trusted through the registry, refused while suspended, revoked, rejected as revoked.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`\n${red('demo failed:')} ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
