import type { CertificateKeyType, PendingCertificateSigningRequest, SigningCertificate } from '@tessera/contracts';
import type { SigningCertificates } from '../../use-cases/load-signing-certificates.js';
import { Badge, Facts, Section, Time } from '../components/display.js';
import { PostForm, TextArea, TextField, flashOf, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { ValidityBadge } from '../components/validity-badge.js';
import type { PageContext } from '../page-context.js';

const KEY_NAMES = { P256: 'P-256 (ES256)', ED25519: 'Ed25519 (EdDSA)' } as const;

const SOURCES = {
  platform: { label: 'platform leaf', tone: 'neutral' },
  imported: { label: 'your imported chain', tone: 'info' },
  csr: { label: 'your access certificate (from a CSR)', tone: 'good' },
} as const;

/**
 * Request signing: per key type the signer in force (platform leaf, imported chain, or the
 * access certificate of a CSR), the certificate signing request waiting for its chain (its
 * PEM to download or copy, and the upload of the CA's chain without a key), the form making
 * a CSR (owners and admins), and the import of a chain with its key; then the mdoc reader
 * chain and the platform CA.
 */
export function SigningCertificatesPage(props: {
  context: PageContext;
  orgId: string;
  view: SigningCertificates;
  /** Owners and admins make certificate signing requests (the verifier refuses the others anyway). */
  manageIdentity: boolean;
  now: Date;
}) {
  const { context, orgId, view, now } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/certificates`;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Request signing',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: `/orgs/${encodeURIComponent(orgId)}` },
          { label: 'Request signing' },
        ],
      }}
    >
      <p>
        Wallets check the signature of every request your verifiers send. By default the platform issues your
        organisation a leaf certificate under its CA. For EU wallets, ask a CA your registrar approved for an access
        certificate: make a certificate signing request here (the key is made by the verifier and never leaves it), hand
        it to the CA, and upload the chain it issues. You can also import a chain with a key made elsewhere.
      </p>
      {view.entries.map(({ keyType, signer, pendingCsr }) => (
        <Section title={`${KEY_NAMES[keyType]} signer`} id={`signer-${keyType}`}>
          <SignerFacts signer={signer} now={now} />
          {pendingCsr ? (
            <PendingCsr
              keyType={keyType}
              pending={pendingCsr}
              base={base}
              csrfToken={context.csrfToken}
              context={context}
            />
          ) : null}
          {props.manageIdentity ? (
            <CsrForm keyType={keyType} base={base} context={context} replaces={pendingCsr !== null} />
          ) : (
            <p class="hint">Owners and administrators of the organisation make certificate signing requests.</p>
          )}
          <ImportForm keyType={keyType} base={base} context={context} />
        </Section>
      ))}
      <Section title="mdoc reader certificate" id="reader">
        <p>
          Requests that ask a browser for an mdoc under ISO/IEC 18013-7 Annex C (<code>org-iso-mdoc</code>) carry a
          reader authentication signed with your P-256 key and this chain.
        </p>
        {view.reader.certificate ? (
          <>
            <Facts
              items={[
                [
                  'In force',
                  <Badge tone={view.reader.certificate.source === 'imported' ? 'info' : 'neutral'}>
                    {view.reader.certificate.source === 'imported' ? 'your imported chain' : 'platform leaf'}
                  </Badge>,
                ],
                ['Subject', view.reader.certificate.subject],
                ['Issuer', view.reader.certificate.issuer],
                [
                  'Valid',
                  <Validity
                    notBefore={view.reader.certificate.notBefore}
                    notAfter={view.reader.certificate.notAfter}
                    now={now}
                  />,
                ],
                ['Extended key usages', view.reader.certificate.extendedKeyUsages.join(', ') || '—'],
                ['SHA-256 fingerprint', <code class="fingerprint">{view.reader.certificate.fingerprint}</code>],
              ]}
            />
            <details>
              <summary>The reader chain (x5chain, leaf first)</summary>
              <pre>{view.reader.certificate.certificateChainPem}</pre>
            </details>
          </>
        ) : (
          <p class="muted">
            Not available: {view.reader.problem?.message}{' '}
            {view.reader.problem?.code ? `(${view.reader.problem.code})` : ''}
          </p>
        )}
        <details class="subpanel" id="reader-import" open={flashOf(context.flash, 'reader') !== undefined}>
          <summary>Import your own reader chain</summary>
          <PostForm
            action={`${base}/reader`}
            csrfToken={context.csrfToken}
            label="Import a reader chain"
            formName="reader"
          >
            <TextArea
              id="reader-chain"
              name="certificateChainPem"
              label="Reader certificate chain (PEM, leaf first)"
              required
              rows={6}
              code
              value={valueOf(flashOf(context.flash, 'reader'), 'certificateChainPem')}
              problem={problemAt(flashOf(context.flash, 'reader'), '/certificateChainPem')}
              hint="The leaf certifies your P-256 signing key and carries the mdoc reader authentication usage (1.0.18013.5.1.6). No key is sent."
            />
            <button type="submit">Import the reader chain</button>
          </PostForm>
        </details>
      </Section>
      {view.platformCaPem ? (
        <Section title="The platform CA" id="platform-ca">
          <p>Platform leaves chain to this certificate, which wallets pin.</p>
          <pre>{view.platformCaPem}</pre>
        </Section>
      ) : null}
    </Layout>
  );
}

function Validity(props: { notBefore: string; notAfter: string; now: Date }) {
  return (
    <>
      <ValidityBadge notAfter={props.notAfter} notBefore={props.notBefore} now={props.now} />{' '}
      <Time at={props.notBefore} /> to <Time at={props.notAfter} />
    </>
  );
}

function SignerFacts(props: { signer: SigningCertificate; now: Date }) {
  const { signer } = props;
  const source = SOURCES[signer.source];
  return (
    <>
      <Facts
        items={[
          ['In force', <Badge tone={source.tone}>{source.label}</Badge>],
          ['Subject', signer.subject],
          ['Organisation identifier', signer.organizationIdentifier ?? '—'],
          ['Issuer', signer.issuer],
          ['Valid', <Validity notBefore={signer.notBefore} notAfter={signer.notAfter} now={props.now} />],
          ['DNS names', signer.sanDnsNames.join(', ') || '—'],
          ['SHA-256 fingerprint', <code class="fingerprint">{signer.fingerprint}</code>],
          ['x509_hash client id', <code class="fingerprint">{signer.x509Hash}</code>],
        ]}
      />
      <details>
        <summary>The chain wallets receive (x5c, leaf first)</summary>
        <pre>{signer.certificateChainPem}</pre>
      </details>
    </>
  );
}

/** A CSR waiting for its chain: what it asks for, its PEM (download, copy), and the upload of the CA's chain. */
function PendingCsr(props: {
  keyType: CertificateKeyType;
  pending: PendingCertificateSigningRequest;
  base: string;
  csrfToken: string;
  context: PageContext;
}) {
  const { keyType, pending, base } = props;
  const flash = flashOf(props.context.flash, `chain-${keyType}`);
  const subject = pending.subject;
  return (
    <div class="subpanel" id={`pending-${keyType}`} role="group" aria-labelledby={`pending-${keyType}-title`}>
      <h3 id={`pending-${keyType}-title`}>
        Certificate signing request <Badge tone="warn">pending</Badge>
      </h3>
      <p>Waiting for the chain your CA issues. Until it is uploaded, requests are signed as above.</p>
      <Facts
        items={[
          ['Common name', subject.commonName],
          ['Organisation', subject.organizationName],
          ['Organisation identifier', subject.organizationIdentifier ?? '—'],
          ['Country', subject.countryName],
          ['DNS names', pending.sanDns?.join(', ') ?? '—'],
          ['URIs', pending.sanUri?.join(', ') ?? '—'],
          ['Made', <Time at={pending.createdAt} />],
        ]}
      />
      <TextArea
        id={`csr-pem-${keyType}`}
        name="csrPem"
        label="The request (PKCS#10, PEM)"
        rows={8}
        code
        readOnly
        value={pending.csrPem}
      />
      <p>
        <a href={`${base}/${keyType}/csr.pem`} download>
          Download the CSR
        </a>{' '}
        <button
          type="button"
          class="secondary"
          data-copy={`csr-pem-${keyType}`}
          data-copy-status={`csr-copy-${keyType}`}
          hidden
        >
          Copy the CSR
        </button>{' '}
        <span role="status" id={`csr-copy-${keyType}`} />
      </p>
      <PostForm
        action={`${base}/${keyType}`}
        csrfToken={props.csrfToken}
        label={`Upload the issued ${KEY_NAMES[keyType]} chain`}
        formName={`chain-${keyType}`}
      >
        <TextArea
          id={`issued-chain-${keyType}`}
          name="certificateChainPem"
          label="The chain your CA issued (PEM, leaf first)"
          required
          rows={6}
          code
          value={valueOf(flash, 'certificateChainPem')}
          problem={problemAt(flash, '/certificateChainPem')}
          hint="No key: the leaf must certify the key of this request, which the verifier holds."
        />
        <button type="submit">Upload the chain</button>
      </PostForm>
    </div>
  );
}

/** The CSR form's fields, each with where the verifier names its problems. */
const CSR_FIELDS: ReadonlyArray<{ name: string; label: string; path: string; required?: boolean; hint?: string }> = [
  {
    name: 'commonName',
    label: 'Common name',
    path: '/subject/commonName',
    required: true,
    hint: 'The name a wallet shows.',
  },
  {
    name: 'organizationName',
    label: 'Legal name of the organisation',
    path: '/subject/organizationName',
    required: true,
  },
  {
    name: 'organizationIdentifier',
    label: 'Organisation identifier',
    path: '/subject/organizationIdentifier',
    hint: 'As the registrar knows you (ETSI EN 319 412-1), such as VATDE-123456789 or LEIXG-…; a registration certificate must name the same.',
  },
  {
    name: 'countryName',
    label: 'Country',
    path: '/subject/countryName',
    required: true,
    hint: 'ISO 3166-1 two-letter code, such as DE.',
  },
  {
    name: 'sanDns',
    label: 'DNS names',
    path: '/sanDns',
    hint: "Separated by spaces; the verifier's host if requests use x509_san_dns.",
  },
  { name: 'sanUri', label: 'URIs', path: '/sanUri', hint: 'Separated by spaces; a contact such as your support page.' },
];

/** Making a certificate signing request: the subject the CA is to certify and the SANs. */
function CsrForm(props: { keyType: CertificateKeyType; base: string; context: PageContext; replaces: boolean }) {
  const { keyType } = props;
  const flash = flashOf(props.context.flash, `csr-${keyType}`);
  return (
    <details class="subpanel" id={`csr-${keyType}`} open={flash !== undefined}>
      <summary>Ask for an access certificate (make a CSR)</summary>
      <PostForm
        action={`${props.base}/${keyType}/csr`}
        csrfToken={props.context.csrfToken}
        label={`Certificate signing request, ${KEY_NAMES[keyType]}`}
        formName={`csr-${keyType}`}
      >
        {props.replaces ? <p class="hint">A new request replaces the pending one.</p> : null}
        {CSR_FIELDS.map((entry) => (
          <TextField
            id={`${entry.name}-${keyType}`}
            name={entry.name}
            label={entry.label}
            required={entry.required}
            value={valueOf(flash, entry.name)}
            problem={problemAt(flash, entry.path)}
            hint={entry.hint}
          />
        ))}
        <button type="submit">Make the certificate signing request</button>
      </PostForm>
    </details>
  );
}

/** Importing a chain with its key, made outside Tessera. */
function ImportForm(props: { keyType: CertificateKeyType; base: string; context: PageContext }) {
  const { keyType } = props;
  const flash = flashOf(props.context.flash, `import-${keyType}`);
  return (
    <details class="subpanel" id={`import-${keyType}`} open={flash !== undefined}>
      <summary>Import a chain with its key</summary>
      <PostForm
        action={`${props.base}/${keyType}`}
        csrfToken={props.context.csrfToken}
        label={`Import a ${KEY_NAMES[keyType]} chain`}
        formName={`import-${keyType}`}
      >
        <TextArea
          id={`chain-${keyType}`}
          name="certificateChainPem"
          label="Certificate chain (PEM, leaf first)"
          required
          rows={6}
          code
          value={valueOf(flash, 'certificateChainPem')}
          problem={problemAt(flash, '/certificateChainPem')}
        />
        <TextArea
          id={`key-${keyType}`}
          name="privateKeyPem"
          label="Private key of the leaf (PKCS#8 PEM)"
          required
          rows={4}
          code
          problem={problemAt(flash, '/privateKeyPem')}
          hint="Sent to the verifier, which keeps it encrypted; the console neither stores nor shows it."
        />
        <button type="submit">Import the chain</button>
      </PostForm>
    </details>
  );
}
