import type { SigningCertificates } from '../../use-cases/load-signing-certificates.js';
import { Badge, Facts, Section, Time } from '../components/display.js';
import { PostForm, TextArea, problemAt } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { ValidityBadge } from '../components/validity-badge.js';
import type { PageContext } from '../page-context.js';

const KEY_NAMES = { P256: 'P-256 (ES256)', ED25519: 'Ed25519 (EdDSA)' } as const;

/**
 * Request signing: per key type the signer in force (platform leaf or imported chain)
 * and the import form. The certificate signing request flow (issue 25) will add a
 * third panel per key type here: generate a CSR, then upload the issued chain.
 */
export function SigningCertificatesPage(props: {
  context: PageContext;
  orgId: string;
  view: SigningCertificates;
  now: Date;
}) {
  const { context, orgId, view, now } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/certificates`;
  const flash = context.flash;
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
        organisation a leaf certificate under its CA; you can import your own chain and key instead.
      </p>
      {view.certificates.map(({ keyType, certificate, problem }) => (
        <Section title={`${KEY_NAMES[keyType]} signer`} id={`signer-${keyType}`}>
          {certificate ? (
            <>
              <Facts
                items={[
                  [
                    'In force',
                    <Badge tone={certificate.source === 'imported' ? 'info' : 'neutral'}>
                      {certificate.source === 'imported' ? 'your imported chain' : 'platform leaf'}
                    </Badge>,
                  ],
                  ['Subject', certificate.subject],
                  ['Issuer', certificate.issuer],
                  [
                    'Valid',
                    <>
                      <ValidityBadge notAfter={certificate.notAfter} notBefore={certificate.notBefore} now={now} />{' '}
                      <Time at={certificate.notBefore} /> to <Time at={certificate.notAfter} />
                    </>,
                  ],
                  ['DNS names', certificate.sanDnsNames.join(', ') || '—'],
                  ['SHA-256 fingerprint', <code class="fingerprint">{certificate.fingerprint}</code>],
                  ['x509_hash client id', <code class="fingerprint">{certificate.x509Hash}</code>],
                ]}
              />
              <details>
                <summary>The chain wallets receive (x5c, leaf first)</summary>
                <pre>{certificate.certificateChainPem}</pre>
              </details>
            </>
          ) : (
            <p class="muted">
              Not available: {problem?.message} {problem?.code ? `(${problem.code})` : ''}
            </p>
          )}
          <PostForm
            action={`${base}/${keyType}`}
            csrfToken={context.csrfToken}
            label={`Import a ${KEY_NAMES[keyType]} chain`}
          >
            <h3>Import your own {KEY_NAMES[keyType]} chain</h3>
            <TextArea
              id={`chain-${keyType}`}
              name="certificateChainPem"
              label="Certificate chain (PEM, leaf first)"
              required
              rows={6}
              code
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
        </Section>
      ))}
      {view.platformCaPem ? (
        <Section title="The platform CA" id="platform-ca">
          <p>Platform leaves chain to this certificate, which wallets pin.</p>
          <pre>{view.platformCaPem}</pre>
        </Section>
      ) : null}
    </Layout>
  );
}
