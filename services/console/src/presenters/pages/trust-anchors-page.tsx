import type { PageOf, TrustAnchor } from '@tessera/contracts';
import { validityOf } from '../../domain/certificate-validity.js';
import { DataTable } from '../components/data-table.js';
import { Badge, Empty, Pagination, Section, Time } from '../components/display.js';
import { ActionButton, ChoiceGroup, PostForm, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { ValidityBadge } from '../components/validity-badge.js';
import type { PageContext } from '../page-context.js';

export function TrustAnchorsPage(props: {
  context: PageContext;
  orgId: string;
  anchors: PageOf<TrustAnchor>;
  now: Date;
}) {
  const { context, orgId, anchors, now } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/trust-anchors`;
  const flash = context.flash;
  const expiring = anchors.data.filter((anchor) => validityOf(anchor.notAfter, now) !== 'valid');
  return (
    <Layout
      context={context}
      frame={{
        title: 'Trust anchors',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: `/orgs/${encodeURIComponent(orgId)}` },
          { label: 'Trust anchors' },
        ],
      }}
    >
      <p>The issuers whose credentials your verifiers accept: their CA certificates, or their DIDs.</p>
      {expiring.length > 0 ? (
        <div class="flash warning" role="status">
          <p>
            {expiring.length} anchor{expiring.length === 1 ? ' is' : 's are'} expired or expire within 30 days:{' '}
            {expiring.map((anchor) => anchor.label ?? anchor.subject).join(', ')}. Credentials under an expired anchor
            are refused.
          </p>
        </div>
      ) : null}
      <Section title="Anchors" id="anchors">
        {anchors.data.length === 0 ? (
          <Empty>No anchor: only the platform's trusted issuers are accepted.</Empty>
        ) : (
          <DataTable
            label="Trust anchors"
            columns={['Anchor', 'Valid until', 'Trusted for', 'SHA-256 fingerprint', 'Remove']}
          >
            {anchors.data.map((anchor) => (
              <tr>
                <td>
                  <strong>{anchor.label ?? (anchor.kind === 'did' ? 'DID' : 'CA certificate')}</strong>
                  <div class="muted">{anchor.subject}</div>
                  <div class="muted">
                    added <Time at={anchor.createdAt} />
                  </div>
                </td>
                <td>
                  {anchor.notAfter ? (
                    <>
                      <ValidityBadge notAfter={anchor.notAfter} now={now} />
                      <div class="muted">
                        <Time at={anchor.notAfter} />
                      </div>
                    </>
                  ) : (
                    <span class="muted">no expiry (DID)</span>
                  )}
                </td>
                <td>
                  {anchor.purpose === 'registrar' ? (
                    <Badge tone="info">registration certificates</Badge>
                  ) : anchor.credentialTypes ? (
                    anchor.credentialTypes.map((type) => (
                      <div>
                        <code>{type}</code>
                      </div>
                    ))
                  ) : (
                    'credentials of any type'
                  )}
                </td>
                <td>
                  <code class="fingerprint">{anchor.fingerprint}</code>
                </td>
                <td>
                  <ActionButton
                    action={`${base}/${encodeURIComponent(anchor.id)}/delete`}
                    csrfToken={context.csrfToken}
                    label="Remove"
                    accessibleLabel={`Remove the trust anchor ${anchor.label ?? anchor.subject}`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination page={anchors} href={(n) => `${base}?page=${n}`} label="Trust anchors" />
      </Section>
      <Section title="Add an anchor" id="add">
        <PostForm action={base} csrfToken={context.csrfToken} label="Add an anchor">
          <TextArea
            name="anchor"
            label="CA certificate (PEM) or DID"
            required
            rows={8}
            code
            value={valueOf(flash, 'anchor')}
            problem={problemAt(flash, '/certificatePem', '/did')}
            hint="One CA certificate, or a did:jwk / did:key."
          />
          <TextField
            name="label"
            label="Label"
            value={valueOf(flash, 'label')}
            problem={problemAt(flash, '/label')}
            hint="Your name for this issuer."
          />
          <ChoiceGroup
            name="purpose"
            type="radio"
            label="Trusted for"
            problem={problemAt(flash, '/purpose')}
            options={[
              { value: 'issuer', label: 'Credentials', hint: 'An issuer: credentials and status lists under it.' },
              {
                value: 'registrar',
                label: 'Registration certificates',
                hint: "A registrar: your verifiers' registration certificates must chain to it (a CA certificate, no credential types).",
              },
            ]}
            checked={[valueOf(flash, 'purpose', 'issuer')!]}
          />
          <TextArea
            name="credentialTypes"
            label="Only for credential types"
            rows={2}
            code
            value={valueOf(flash, 'credentialTypes')}
            problem={problemAt(flash, '/credentialTypes')}
            hint="Optional: one vct or mdoc doctype per line. Empty: any type."
          />
          <button type="submit">Add the anchor</button>
        </PostForm>
      </Section>
    </Layout>
  );
}
