import type { TrustRegistryView } from '../../use-cases/load-trust-registry.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Pagination, Section } from '../components/display.js';
import { PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { TrustedEntityStatusBadge } from '../components/trusted-entity-status.js';
import type { PageContext } from '../page-context.js';

export function TrustRegistryPage(props: { context: PageContext; view: TrustRegistryView }) {
  const { context, view } = props;
  const { ecosystem, filter } = view;
  const base = `/ecosystems/${encodeURIComponent(ecosystem.id)}/trust-registry`;
  const flash = context.flash;
  const query = (pageNumber: number) =>
    `${base}?${new URLSearchParams({ ...(filter as Record<string, string>), page: String(pageNumber) }).toString()}`;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Trust registry',
        breadcrumbs: [
          { label: 'Ecosystems', href: '/ecosystems' },
          { label: ecosystem.name, href: `/ecosystems/${encodeURIComponent(ecosystem.id)}` },
          { label: 'Trust registry' },
        ],
      }}
    >
      <Section title="Trusted entities" id="entities">
        <form method="get" action={base} class="columns" aria-label="Filter the entities">
          <SelectField
            id="filter-role"
            name="role"
            label="Role"
            blank="Any role"
            value={filter.role ?? ''}
            options={[
              { value: 'issuer', label: 'Issuers' },
              { value: 'verifier', label: 'Verifiers' },
            ]}
          />
          <SelectField
            id="filter-status"
            name="status"
            label="Status"
            blank="Any status"
            value={filter.status ?? ''}
            options={['active', 'suspended', 'withdrawn'].map((status) => ({ value: status, label: status }))}
          />
          <TextField id="filter-vct" name="vct" label="Allowed vct" value={filter.vct ?? ''} />
          <TextField id="filter-doctype" name="doctype" label="Allowed doctype" value={filter.doctype ?? ''} />
          <div>
            <button type="submit" class="secondary">
              Filter
            </button>
          </div>
        </form>
        {view.entities.data.length === 0 ? (
          <Empty>No entity matches.</Empty>
        ) : (
          <DataTable
            label="Trusted entities"
            columns={[
              'Entity',
              'Role',
              'Status',
              'Allowed credential types',
              { heading: 'Certificates', numeric: true },
            ]}
          >
            {view.entities.data.map((entity) => (
              <tr>
                <td>
                  <a href={`${base}/${encodeURIComponent(entity.id)}`}>{entity.name}</a>
                  {entity.orgId ? <div class="muted">organisation {entity.orgId}</div> : null}
                </td>
                <td>{entity.role}</td>
                <td>
                  <TrustedEntityStatusBadge status={entity.status} />
                  {entity.statusReason ? <div class="muted">{entity.statusReason}</div> : null}
                </td>
                <td>
                  {entity.allowedCredentialTypes.length === 0
                    ? '—'
                    : entity.allowedCredentialTypes.map((type) => (
                        <div>
                          <code>{type.format === 'dc+sd-jwt' ? type.vct : type.doctype}</code>
                        </div>
                      ))}
                </td>
                <td class="number">{entity.certificates.length}</td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination page={view.entities} href={query} label="Trusted entities" />
      </Section>
      {view.lead ? (
        <Section title="Register an entity" id="register">
          <PostForm action={base} csrfToken={context.csrfToken} label="Register an entity">
            <TextField
              name="name"
              label="Name"
              required
              value={valueOf(flash, 'name')}
              problem={problemAt(flash, '/name')}
            />
            <SelectField
              name="role"
              label="Role"
              required
              value={valueOf(flash, 'role', 'issuer')}
              problem={problemAt(flash, '/role')}
              options={[
                { value: 'issuer', label: 'Issuer' },
                { value: 'verifier', label: 'Verifier' },
              ]}
            />
            <TextArea
              name="allowedCredentialTypes"
              label="Allowed credential types"
              rows={2}
              value={valueOf(flash, 'allowedCredentialTypes')}
              problem={problemAt(flash, '/allowedCredentialTypes')}
              hint="Issuers: one per line, a vct URL (SD-JWT VC) or an mdoc doctype. Verifiers: leave empty."
              code
            />
            <TextArea
              name="certificates"
              label="Certificates (PEM)"
              required
              rows={8}
              value={valueOf(flash, 'certificates')}
              problem={problemAt(flash, '/certificates')}
              hint="One or more PEM blocks: the entity's CA certificate(s), or a leaf trusted exactly."
              code
            />
            <TextField
              name="orgId"
              label="Member organisation"
              value={valueOf(flash, 'orgId')}
              problem={problemAt(flash, '/orgId')}
              hint="Optional: the lead or an active member this entity is."
            />
            <TextField
              name="informationUri"
              label="Information address"
              type="url"
              value={valueOf(flash, 'informationUri')}
              problem={problemAt(flash, '/informationUri')}
            />
            <button type="submit">Register the entity</button>
          </PostForm>
        </Section>
      ) : null}
    </Layout>
  );
}
