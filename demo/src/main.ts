// `npm run demo`: walks the whole Tessera story against running services (start them
// with `npm start` in another terminal): a status list, an ecosystem whose intent maps
// to a verification template, an intent-based presentation request shown as a QR code,
// a presentation by the bundled demo wallet, the verified claims; then the ecosystem's
// trust registry: the lead registers the issuer and makes the ecosystem's list the
// trust, a presentation names the trusted entity, a suspension refuses the next one,
// a reactivation restores it; then a revocation, and the next presentation
// rejected as revoked; finally an mDL (ISO mdoc) whose status the issuer publishes as
// a CWT status list: verified through that list, then refused once revoked in it.
import { randomBytes } from 'node:crypto';
import qrcode from 'qrcode-terminal';
import { DEMO_VCT, issueDemoCredential, issueDemoMdl } from './demo-credential.js';
import { callJson, waitUntilUp } from './http.js';
import { createDemoIssuer } from './issuer.js';
import { bold, green, printDetail, printStep, red } from './print.js';
import { presentMdoc } from './mdoc-wallet.js';
import { DEMO_INTENT, DEMO_MDL_DCQL, setUpRelyingParty } from './relying-party.js';
import { dataDirFromEnv, serviceUrlsFromEnv, statusListApiKey } from './services.js';
import { publishStatusList } from './status-list.js';
import { fetchAuthorizationRequest, postResponse, presentSdJwtVc } from './wallet.js';

const urls = serviceUrlsFromEnv();
const { verifier: VERIFIER, ecosystem: ECOSYSTEM, statusList: STATUS_LIST } = urls;
const DATA_DIR = dataDirFromEnv();
const STATUS_INDEX = 3;
const MDL_STATUS_INDEX = 5;

async function main(): Promise<void> {
  const run = randomBytes(3).toString('hex');

  printStep('Waiting for the services');
  await Promise.all([VERIFIER, ECOSYSTEM, STATUS_LIST].map((base) => waitUntilUp(`${base}/health/ready`)));

  printStep('Issuer publishes a status list (1 bit per credential, all valid)');
  const issuer = await createDemoIssuer();
  const statusList = await publishStatusList({
    statusListUrl: STATUS_LIST,
    apiKey: statusListApiKey(DATA_DIR),
    issuer,
  });
  printDetail('status list', statusList.uri);

  printStep(
    'Platform admin invites an organisation to lead an ecosystem; it forms one, with an intent, a verifier, a template, and trusts the issuer',
  );
  const rp = await setUpRelyingParty({
    urls,
    dataDir: DATA_DIR,
    run,
    issuerCaPem: issuer.caPem,
    issuerName: issuer.name,
  });
  const { orgId, ecosystemId, ownerToken: owner } = rp;
  const org = (path: string) => `${VERIFIER}/v1/orgs/${orgId}/oid4vp/${path}`;
  printDetail('organisation', orgId);
  printDetail('ecosystem', ecosystemId);
  printDetail('intent', `${DEMO_INTENT} (${rp.intentId})`);
  printDetail('template', `${rp.templateId} mapped to intent ${DEMO_INTENT}`);

  printStep('The demo wallet receives a credential (SD-JWT VC, status list entry 3)');
  const { credential, holderKey } = await issueDemoCredential({
    issuer,
    status: { idx: STATUS_INDEX, uri: statusList.uri },
  });
  const platformCa = await (await fetch(`${VERIFIER}/oid4vp/platform-ca.pem`)).text();

  /** An intent-based session, shown as a link and QR code: what a shop's till would display. */
  const requestPresentation = async (label: string) => {
    const created = await callJson(
      'POST',
      `${org('intent-based-verification-presentation')}?verifierId=${rp.verifierId}&ecosystemId=${ecosystemId}`,
      {
        token: owner,
        body: { intent: DEMO_INTENT, responseMode: 'direct_post' },
      },
    );
    const session = created.data;
    printDetail(`${label} request`, session.authorizationRequestUri);
    qrcode.generate(session.authorizationRequestUri, { small: true }, (code) =>
      process.stdout.write(`${code.replace(/^/gm, '     ')}\n`),
    );
    return session as { id: string; authorizationRequestUri: string };
  };
  /** The demo wallet scans the request, checks it and presents the credential. */
  const answerRequest = async (session: { id: string; authorizationRequestUri: string }) => {
    const request = await fetchAuthorizationRequest(session.authorizationRequestUri, platformCa);
    printDetail(
      'wallet checked the request of',
      `${request.client_metadata?.client_name ?? request.client_id} (${request.client_id.split(':')[0]})`,
    );
    const answer = await postResponse(request, await presentSdJwtVc({ request, credential, holderKey }));
    printDetail('verifier answered the wallet', `${answer.status} ${JSON.stringify(answer.body)}`);
    const record = await callJson('GET', `${org('verifier-presentation')}?id=${session.id}`, { token: owner });
    return { id: session.id, record: record.data };
  };
  const present = async (label: string) => answerRequest(await requestPresentation(label));

  printStep('Intent-based presentation request, shown as a QR code; the wallet presents');
  const first = await present('presentation');
  if (first.record.state !== 'ResponseVerified')
    throw new Error(`expected ResponseVerified, got ${JSON.stringify(first.record)}`);
  const result = await callJson(
    'GET',
    `${org('verifier-presentation-response')}?verificationPresentationId=${first.id}`,
    { token: owner },
  );
  printDetail('session', green(first.record.state));
  printDetail('verified claims', result.data.presentations[0].claims);

  printStep("The lead registers the issuer in the ecosystem's trust registry and makes the list the ecosystem's trust");
  const registry = `${ECOSYSTEM}/v1/ecosystem/${ecosystemId}`;
  const entity = await callJson('POST', `${registry}/trusted-entities`, {
    token: owner,
    body: {
      name: issuer.name,
      role: 'issuer',
      allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: DEMO_VCT }],
      certificates: [{ pem: issuer.caPem }],
    },
  });
  const entityId = entity.data.id as string;
  await callJson('PUT', `${registry}/trust-policy`, { token: owner, body: { policy: 'ecosystem' } });
  printDetail('trusted entity', `${entity.data.name} (${entityId}), issuer of ${DEMO_VCT}`);
  const listResponse = await fetch(`${registry}/trust-list`, { headers: { authorization: `Bearer ${owner}` } });
  const signedList = await listResponse.text();
  if (!listResponse.ok) throw new Error(`GET trust-list answered ${listResponse.status}: ${signedList.slice(0, 300)}`);
  const [listHeader, listPayload] = signedList
    .split('.')
    .slice(0, 2)
    // The demo prints a few nested fields of the list; its schema is checked by the ecosystem's own tests.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, any>);
  printDetail(
    'signed trust list',
    `${listResponse.headers.get('content-type')}, typ ${listHeader!.typ}, sequence ${listPayload!.LoTE.ListAndSchemeInformation.LoTESequenceNumber}`,
  );

  printStep("A presentation verified against the ecosystem's list names the trusted entity");
  const listed = await present('listed');
  if (listed.record.state !== 'ResponseVerified')
    throw new Error(`expected ResponseVerified, got ${JSON.stringify(listed.record)}`);
  const listedResult = (
    await callJson('GET', `${org('verifier-presentation-response')}?verificationPresentationId=${listed.id}`, {
      token: owner,
    })
  ).data.presentations[0];
  printDetail('session', green(listed.record.state));
  printDetail(
    'trusted through',
    `${listedResult.trustedEntityName} (${listedResult.trustedEntityId}), trust list sequence ${listedResult.trustListSequence}`,
  );
  if (listedResult.trustedEntityId !== entityId)
    throw new Error(`expected the entity ${entityId} to be named, got ${JSON.stringify(listedResult)}`);

  // A request shown before the suspension and answered after it: the answer is judged by the list as it is then.
  // (A request created while no issuer qualifies is refused at once: 409 NO_TRUSTED_ISSUER.)
  printStep('A shop shows a request; meanwhile the lead suspends the issuer; then the wallet answers');
  const pending = await requestPresentation('pending');
  await callJson('POST', `${registry}/trusted-entities/${entityId}/status`, {
    token: owner,
    body: { status: 'suspended', reason: 'Signing key under investigation' },
  });
  printDetail('trusted entity', red('suspended'));
  // Replicas learn of the change from the registry's event; the bound is one second.
  await new Promise((resolveWait) => setTimeout(resolveWait, 1000));
  const suspended = await answerRequest(pending);
  printDetail('session', red(`${suspended.record.state} ${suspended.record.error?.code ?? ''}`));
  if (suspended.record.state !== 'Error' || suspended.record.error?.code !== 'ISSUER_NOT_TRUSTED') {
    throw new Error(`expected Error ISSUER_NOT_TRUSTED, got ${JSON.stringify(suspended.record)}`);
  }

  printStep('The lead reactivates the issuer');
  await callJson('POST', `${registry}/trusted-entities/${entityId}/status`, {
    token: owner,
    body: { status: 'active', reason: 'Investigation closed' },
  });
  await new Promise((resolveWait) => setTimeout(resolveWait, 1000));
  printDetail('trusted entity', green('active'));

  printStep('The issuer revokes the credential (status list entry 3 → INVALID)');
  await statusList.setStatus(STATUS_INDEX, 1);
  // The list's ttl is 1 s: a verifier may serve its cached copy until then.
  await new Promise((resolveWait) => setTimeout(resolveWait, 1500));

  printStep('The next presentation of the same credential');
  const second = await present('second');
  printDetail('session', red(`${second.record.state} ${second.record.error?.code ?? ''}`));
  if (second.record.state !== 'Error' || second.record.error?.code !== 'CREDENTIAL_REVOKED') {
    throw new Error(`expected Error CREDENTIAL_REVOKED, got ${JSON.stringify(second.record)}`);
  }

  printStep('The issuer publishes the status of its mDLs as a CWT status list (application/statuslist+cwt)');
  const mdlStatusList = await publishStatusList({
    statusListUrl: STATUS_LIST,
    apiKey: statusListApiKey(DATA_DIR),
    issuer,
    form: 'cwt',
  });
  printDetail('status list (CWT)', mdlStatusList.uri);

  printStep(`The demo wallet receives an mDL (ISO mdoc); its MSO names entry ${MDL_STATUS_INDEX} of the CWT list`);
  const mdl = await issueDemoMdl({ issuer, status: { idx: MDL_STATUS_INDEX, uri: mdlStatusList.uri } });

  /** A direct request for the mDL (the organisation trusts the issuer's CA), answered by the demo wallet. */
  const presentMdl = async (label: string) => {
    const created = await callJson('POST', `${org('presentation')}?verifierId=${rp.verifierId}`, {
      token: owner,
      body: { dcql: DEMO_MDL_DCQL.query, responseMode: 'direct_post' },
    });
    const session = created.data as { id: string; authorizationRequestUri: string };
    printDetail(`${label} request`, session.authorizationRequestUri);
    const request = await fetchAuthorizationRequest(session.authorizationRequestUri, platformCa);
    const answer = await postResponse(request, await presentMdoc({ request, ...mdl }));
    printDetail('verifier answered the wallet', `${answer.status} ${JSON.stringify(answer.body)}`);
    const record = await callJson('GET', `${org('verifier-presentation')}?id=${session.id}`, { token: owner });
    return { id: session.id, record: record.data };
  };

  printStep('The shop asks for the mDL; the wallet presents it; the verifier reads its status from the CWT list');
  const mdlVerified = await presentMdl('mDL');
  if (mdlVerified.record.state !== 'ResponseVerified')
    throw new Error(`expected ResponseVerified, got ${JSON.stringify(mdlVerified.record)}`);
  const mdlResult = (
    await callJson('GET', `${org('verifier-presentation-response')}?verificationPresentationId=${mdlVerified.id}`, {
      token: owner,
    })
  ).data.presentations[0];
  printDetail('mDL session', green(mdlVerified.record.state));
  printDetail('verified claims', mdlResult.claims);
  printDetail(
    'mDL status checked',
    `entry ${mdlResult.status.idx} ${mdlResult.status.status} in a ${mdlResult.status.format} status list`,
  );

  printStep(`The issuer revokes the mDL (CWT list entry ${MDL_STATUS_INDEX} → INVALID)`);
  await mdlStatusList.setStatus(MDL_STATUS_INDEX, 1);
  await new Promise((resolveWait) => setTimeout(resolveWait, 1500));

  printStep('The next presentation of the mDL');
  const mdlRevoked = await presentMdl('mDL again');
  printDetail('mDL session', red(`${mdlRevoked.record.state} ${mdlRevoked.record.error?.code ?? ''}`));
  if (mdlRevoked.record.state !== 'Error' || mdlRevoked.record.error?.code !== 'CREDENTIAL_REVOKED') {
    throw new Error(`expected Error CREDENTIAL_REVOKED, got ${JSON.stringify(mdlRevoked.record)}`);
  }
  process.stdout.write(
    `\n${bold(green('Demo complete:'))} verified, trusted through the registry, refused while suspended, revoked, rejected as revoked; an mDL verified through a CWT status list, then rejected as revoked.\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`\n${red('demo failed:')} ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
