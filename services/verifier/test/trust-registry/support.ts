// The ecosystem side of the registry tests: a stub ecosystem service answering
// `ecosystem.v1.trust-list.get` (and `ecosystem.v1.intent.resolve`) on a peer
// connection of the verifier's bus and publishing `ecosystem.v1.trust-list.changed`
// after each change, as the real service does once its transaction commits; issuers
// whose certificates carry the key identifiers a trust list names (built with
// @peculiar/x509); and a wallet answering with their credentials over real HTTP.
import { createHash, randomUUID, webcrypto } from 'node:crypto';
import { exportJWK } from 'jose';
import {
  ErrorCode,
  intentResolveRpc,
  trustListChangedEvent,
  trustListGetRpc,
  type AllowedCredentialType,
  type IntentResolveResult,
  type TrustListEntity,
  type TrustListGetRequest,
  type TrustPolicy,
} from '@tessera/contracts';
import { forbidden, notFound, publishEvent, serveRequests, type MessageBus } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import type { CreatedPresentation } from '@tessera/contracts';
import type { E2e } from '../support/e2e.js';
import {
  buildResponse,
  dcApiPayload,
  presentMdl,
  presentPid,
  requestFacts,
  resolveDcApiRequest,
  resolveRedirectRequest,
  submitResponse,
} from '../support/holder.js';
import {
  ISSUER_HOST,
  issueMdl,
  issuePid,
  MDL_DOCTYPE,
  newHolder,
  PID_VCT,
  type TestIssuer,
} from '../support/issuers.js';
import { ALGORITHM, x509, type TestCertificate } from '../verification/support/pki.js';

export { MDL_DOCTYPE, PID_VCT };
export const DIPLOMA_VCT = 'https://example.eu/diploma';
export const PID_TYPE: AllowedCredentialType = { format: 'dc+sd-jwt', vct: PID_VCT };
export const MDL_TYPE: AllowedCredentialType = { format: 'mso_mdoc', doctype: MDL_DOCTYPE };
export const DIPLOMA_TYPE: AllowedCredentialType = { format: 'dc+sd-jwt', vct: DIPLOMA_VCT };
const DAY = 86_400_000;
const HOUR = 3_600_000;

// ---------------------------------------------------------------------------
// Issuers with key identifiers
// ---------------------------------------------------------------------------

let serial = 0x5000;

async function certificate(options: {
  name: string;
  issuer?: TestCertificate;
  ca: boolean;
  extensions?: x509.Extension[];
}): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const subjectKeyId = await x509.SubjectKeyIdentifierExtension.create(keys.publicKey);
  const authorityKeyId = options.issuer
    ? [await x509.AuthorityKeyIdentifierExtension.create(options.issuer.certificate)]
    : [];
  const generated = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16),
    subject: options.name,
    issuer: options.issuer ? options.issuer.certificate.subject : options.name,
    notBefore: new Date(Date.now() - 30 * DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: options.issuer ? options.issuer.keys.privateKey : keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca, options.ca ? 0 : undefined, true),
      new x509.KeyUsagesExtension(
        options.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      ...(options.ca ? [subjectKeyId] : []),
      ...authorityKeyId,
      ...(options.extensions ?? []),
    ],
  });
  const der = new Uint8Array(generated.rawData);
  return {
    certificate: generated,
    keys,
    der,
    x5c: Buffer.from(der).toString('base64'),
    pem: generated.toString('pem'),
  };
}

/** An issuer whose CA has a subject key identifier and whose leaf names it as authority key identifier (what `aki` compares). */
export async function createRegistryIssuer(name: string, leafExtensions: x509.Extension[] = []): Promise<TestIssuer> {
  const ca = await certificate({ name: `CN=${name} CA,O=Registry Tests`, ca: true });
  const leaf = await certificate({
    name: `CN=${name},O=Registry Tests`,
    issuer: ca,
    ca: false,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: ISSUER_HOST }]), ...leafExtensions],
  });
  return { ca, leaf, leafPrivateJwk: await exportJWK(leaf.keys.privateKey) };
}

/** Another signing leaf under the same CA (same authority key identifier, another certificate). */
export async function createSiblingIssuer(issuer: TestIssuer, name: string): Promise<TestIssuer> {
  const leaf = await certificate({
    name: `CN=${name},O=Registry Tests`,
    issuer: issuer.ca,
    ca: false,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: ISSUER_HOST }])],
  });
  return { ca: issuer.ca, leaf, leafPrivateJwk: await exportJWK(leaf.keys.privateKey) };
}

/** The key identifier of an extension as the list carries it: lowercase hex. */
function keyIdOf(
  certificate: x509.X509Certificate,
  type: typeof x509.SubjectKeyIdentifierExtension | typeof x509.AuthorityKeyIdentifierExtension,
): string | null {
  const extension = certificate.getExtension(type as typeof x509.SubjectKeyIdentifierExtension) as {
    keyId?: string;
  } | null;
  return extension?.keyId ? extension.keyId.toLowerCase() : null;
}

/** A certificate as `ecosystem.v1.trust-list.get` lists it (kind from basicConstraints, as the ecosystem derives it). */
export function listedCertificate(issued: TestCertificate): TrustListEntity['certificates'][number] {
  const ca = issued.certificate.getExtension(x509.BasicConstraintsExtension)?.ca === true;
  return {
    id: randomUUID(),
    fingerprint: createHash('sha256').update(issued.der).digest('hex'),
    kind: ca ? 'ca' : 'leaf',
    ski: keyIdOf(issued.certificate, x509.SubjectKeyIdentifierExtension),
    aki: keyIdOf(issued.certificate, x509.AuthorityKeyIdentifierExtension),
    notBefore: issued.certificate.notBefore.toISOString(),
    notAfter: issued.certificate.notAfter.toISOString(),
    pem: issued.pem,
  };
}

/** An entity of the list; an active issuer allowed the PID type unless told. */
export function entity(options: {
  name: string;
  certificates: TestCertificate[];
  role?: TrustListEntity['role'];
  status?: TrustListEntity['status'];
  types?: AllowedCredentialType[];
  orgId?: string;
}): TrustListEntity {
  return {
    id: randomUUID(),
    name: options.name,
    role: options.role ?? 'issuer',
    orgId: options.orgId ?? null,
    status: options.status ?? 'active',
    allowedCredentialTypes: options.role === 'verifier' ? [] : (options.types ?? [PID_TYPE]),
    certificates: options.certificates.map(listedCertificate),
  };
}

// ---------------------------------------------------------------------------
// The stub ecosystem service
// ---------------------------------------------------------------------------

/** One ecosystem of the stub: its list, who may name it, its trust policy. */
export interface StubList {
  ecosystemId: string;
  sequence: number;
  /** How far ahead of the real time `nextUpdate` is answered. */
  nextUpdateInMs: number;
  entities: TrustListEntity[];
  /** Organisations that are the lead or an active member (`orgId` requests of others: 403 NOT_A_MEMBER). */
  members: Set<string>;
  trustPolicy?: TrustPolicy;
}

export interface StubEcosystem {
  bus: MessageBus;
  /** Every trust-list request, in order. */
  received: TrustListGetRequest[];
  /** Adds an ecosystem (sequence 1, nextUpdate an hour ahead unless told). */
  add(options: Partial<StubList> & { entities: TrustListEntity[] }): StubList;
  /** Changes a list as a committed registry change does: `mutate`, sequence + 1, then the event (unless `publish: false`: a dropped event). */
  change(list: StubList, mutate: (list: StubList) => void, options?: { publish?: boolean }): void;
  /** Sets an entity's status (a change). */
  setStatus(list: StubList, entityId: string, status: TrustListEntity['status'], options?: { publish?: boolean }): void;
  /** Stops answering (the ecosystem service or its NATS link is down); `serve` starts again. */
  stop(): void;
  serve(): void;
  /** Holds each answer back this long (to see concurrent fetches coalesce). */
  delayMs: number;
}

/**
 * A file-scoped fixture: a stub ecosystem answering on a bus `connect` opens (the
 * harness's peer connection, or a shared test namespace), stopped and closed after the file.
 */
export function stubEcosystemFixture(connect: () => Promise<MessageBus>) {
  // Vitest reads a fixture's first parameter, which must be a destructuring pattern.
  return async (
    {}: object,
    { onCleanup }: { onCleanup(cleanup: () => Promise<void> | void): void },
  ): Promise<StubEcosystem> => {
    const bus = await connect();
    const stub = await startStubEcosystem(bus);
    onCleanup(async () => {
      stub.stop();
      await bus.close();
    });
    return stub;
  };
}

/** Intents the stub resolves: `<policy>-intent` to the given template under that policy, `plain-intent` without a policy. */
export async function startStubEcosystem(
  bus: MessageBus,
  options: { templateId?: string } = {},
): Promise<StubEcosystem> {
  const lists = new Map<string, StubList>();
  const received: TrustListGetRequest[] = [];
  const stub: StubEcosystem = {
    bus,
    received,
    delayMs: 0,
    add(given) {
      const list: StubList = {
        ecosystemId: randomUUID(),
        sequence: 1,
        nextUpdateInMs: HOUR,
        members: new Set(),
        ...given,
      };
      lists.set(list.ecosystemId, list);
      return list;
    },
    change(list, mutate, changeOptions = {}) {
      mutate(list);
      list.sequence += 1;
      if (changeOptions.publish !== false)
        publishEvent(bus, trustListChangedEvent, { ecosystemId: list.ecosystemId, sequence: list.sequence });
    },
    setStatus(list, entityId, status, changeOptions) {
      stub.change(
        list,
        (l) => {
          l.entities = l.entities.map((candidate) =>
            candidate.id === entityId ? { ...candidate, status } : candidate,
          );
        },
        changeOptions,
      );
    },
    stop: () => stopServing(),
    serve: () => {
      stopServing = serve();
    },
  };
  const serve = () => {
    const stopList = serveRequests(bus, trustListGetRpc, {
      logger: silentLogger(),
      handler: async (request) => {
        received.push(request);
        if (stub.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, stub.delayMs));
        const list = lists.get(request.ecosystemId);
        if (!list) throw notFound('No such ecosystem.', ErrorCode.ECOSYSTEM_NOT_FOUND);
        if (request.orgId !== undefined && !list.members.has(request.orgId))
          throw forbidden(
            'The organisation is not the lead or an active member of this ecosystem.',
            ErrorCode.NOT_A_MEMBER,
          );
        const unchanged = request.knownSequence === list.sequence;
        return {
          ecosystemId: list.ecosystemId,
          sequence: list.sequence,
          nextUpdate: new Date(Date.now() + list.nextUpdateInMs).toISOString(),
          ...(unchanged ? {} : { entities: structuredClone(list.entities) }),
        };
      },
    });
    const stopIntents = serveRequests(bus, intentResolveRpc, {
      logger: silentLogger(),
      handler: async (request): Promise<IntentResolveResult> => {
        const list = lists.get(request.ecosystemId);
        if (!list || !options.templateId) throw notFound('No such ecosystem.', ErrorCode.ECOSYSTEM_NOT_FOUND);
        return {
          intentId: 'intent-age',
          intent: request.intent,
          templateId: options.templateId,
          scope: 'ecosystem',
          ...(list.trustPolicy ? { trustPolicy: list.trustPolicy } : {}),
        };
      },
    });
    return () => {
      stopList();
      stopIntents();
    };
  };
  let stopServing = serve();
  await bus.ping();
  return stub;
}

// ---------------------------------------------------------------------------
// The wallet
// ---------------------------------------------------------------------------

/** A wallet holding a credential of `issuer` answers the session (SD-JWT PID for query `pid`, or an mDL for `mdl`; over the DC API when `origin` is given). */
export async function answerAs(
  e: E2e,
  session: CreatedPresentation,
  issuer: TestIssuer,
  options: { format?: 'sd-jwt' | 'mdoc'; vct?: string; origin?: string } = {},
) {
  const holder = await newHolder();
  const { origin } = options;
  const resolved = origin
    ? await resolveDcApiRequest(e.wallet, session.dcApiRequest!.data, origin)
    : await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const facts = requestFacts(resolved);
  const mdoc = options.format === 'mdoc';
  const presentation = mdoc
    ? await presentMdl(await issueMdl(issuer, holder), holder, facts, origin ? { origin } : {})
    : await presentPid(
        await issuePid(issuer, holder, options.vct ? { vct: options.vct } : {}),
        holder,
        facts,
        origin ? { origin } : {},
      );
  const built = await buildResponse(e.wallet, resolved, { [mdoc ? 'mdl' : 'pid']: [presentation] }, origin);
  if (origin)
    return e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse: dcApiPayload(built), origin });
  return submitResponse(e.wallet, resolved, built);
}

/**
 * A wallet's answer made ready in advance (request resolved, presentation and
 * response built), sent by `submit`: so a measurement after a change times the
 * verifier, not the wallet.
 */
export async function prepareAnswer(
  e: E2e,
  session: CreatedPresentation,
  issuer: TestIssuer,
): Promise<() => ReturnType<typeof submitResponse>> {
  const holder = await newHolder();
  const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
  const built = await buildResponse(e.wallet, resolved, {
    pid: [await presentPid(await issuePid(issuer, holder), holder, requestFacts(resolved))],
  });
  return () => submitResponse(e.wallet, resolved, built);
}

/** The payload of a compact JWS (the signed request object), decoded. */
export function jwsPayload(jws: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** base64url of a hex key identifier: the `aki` value a wallet compares. */
export const akiValue = (hex: string | null) => Buffer.from(hex!, 'hex').toString('base64url');

/** Resolves once `check` holds (polled every 10 ms), or fails after `withinMs`. */
export async function eventually(check: () => boolean, withinMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}
