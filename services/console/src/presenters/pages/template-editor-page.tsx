import type { ErrorDetail } from '@tessera/contracts';
import { EXAMPLE_QUERY, checkDcqlDraft, walletQueryOf } from '../../domain/dcql-draft.js';
import { requestedCredentials } from '../../domain/requested-credentials.js';
import type { TemplateEditor } from '../../use-cases/load-template-editor.js';
import { scriptPath } from '../asset-paths.js';
import { DcqlProblems, RequestPreview } from '../components/dcql-check.js';
import { Section } from '../components/display.js';
import { ActionButton, PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function TemplateEditorPage(props: { context: PageContext; orgId: string; editor: TemplateEditor }) {
  const { context, orgId, editor } = props;
  const { template } = editor;
  const flash = context.flash;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const action = template ? `${org}/templates/${encodeURIComponent(template.id)}` : `${org}/templates`;
  const queryText = valueOf(
    flash,
    'query',
    JSON.stringify(template ? template.templateJson.dcql.query : EXAMPLE_QUERY, null, 2),
  )!;
  const draft = checkDcqlDraft(queryText);
  // After a refused save, the verifier's own problems are what the person must see at the query.
  const saveProblems: ErrorDetail[] | undefined =
    flash?.kind === 'problem' && flash.code === 'INVALID_DCQL' ? flash.details : undefined;
  const previewVerifierId = valueOf(flash, 'previewVerifierId', editor.verifiers[0]?.verifierId ?? '');
  const title = template ? `Template ${template.name}` : 'New template';
  return (
    <Layout
      context={context}
      frame={{
        title,
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: org },
          { label: 'Templates', href: `${org}/templates` },
          { label: template?.name ?? 'New' },
        ],
        scripts: [scriptPath('dcql-editor')],
      }}
    >
      <div class="columns">
        <Section title="The template" id="template">
          <PostForm action={action} csrfToken={context.csrfToken} label="Template" id="template-form">
            <TextField
              name="name"
              label="Name"
              required
              value={valueOf(flash, 'name', template?.name)}
              problem={problemAt(flash, '/name')}
            />
            <SelectField
              name="signerOption"
              label="Requests are signed with"
              required
              value={valueOf(flash, 'signerOption', template?.signerOption ?? 'X509_P256')}
              problem={problemAt(flash, '/signerOption')}
              options={[
                { value: 'X509_P256', label: 'X.509 certificate, P-256 key' },
                { value: 'X509_ED25519', label: 'X.509 certificate, Ed25519 key' },
                { value: 'DID', label: 'A decentralised identifier (did:jwk)' },
              ]}
            />
            <SelectField
              name="clientIdPrefix"
              label="Client identifier"
              value={valueOf(flash, 'clientIdPrefix', template?.clientIdPrefix ?? '')}
              problem={problemAt(flash, '/clientIdPrefix')}
              blank="The platform's default"
              options={[
                { value: 'x509_san_dns', label: 'x509_san_dns: the certificate’s DNS name' },
                { value: 'x509_hash', label: 'x509_hash: a hash of the certificate' },
              ]}
            />
            <SelectField
              id="template-verifier"
              name="verifierId"
              label="For the verifier"
              value={valueOf(flash, 'verifierId', template?.verifierId ?? '')}
              problem={problemAt(flash, '/verifierId')}
              blank="None: judged when a session uses it"
              hint="A template for one verifier is judged against its registration certificate when saved."
              options={editor.verifiers.map((verifier) => ({ value: verifier.verifierId, label: verifier.verifierId }))}
            />
            <TextArea
              id="query"
              name="query"
              label="DCQL query"
              rows={18}
              required
              code
              value={queryText}
              describedBy="dcql-check"
              hint='JSON: the platform’s "combine": "all", "credentials" and optional "credential_sets". Checked as you type.'
            />
            <div id="dcql-check" class="dcql-check" aria-live="polite" data-check-url={`${org}/templates/check`}>
              <DcqlProblems problems={saveProblems ?? draft.problems} />
            </div>
            <button type="submit">{template ? 'Save the template' : 'Add the template'}</button>
          </PostForm>
          {template ? (
            <ActionButton
              action={`${action}/delete`}
              csrfToken={context.csrfToken}
              label="Delete the template"
              danger
            />
          ) : null}
        </Section>
        <Section title="What the wallet shows" id="preview">
          <SelectField
            id="preview-verifier"
            name="previewVerifierId"
            label="As sent by"
            value={previewVerifierId}
            blank="No verifier"
            options={editor.verifiers.map((verifier) => ({
              value: verifier.verifierId,
              label: verifier.clientMetadata?.client_name ?? verifier.verifierId,
            }))}
          />
          <div id="dcql-preview">
            <RequestPreview
              requested={requestedCredentials(draft.query)}
              walletQuery={draft.query ? walletQueryOf(draft.query) : undefined}
              verifier={editor.verifiers.find((verifier) => verifier.verifierId === previewVerifierId)}
            />
          </div>
        </Section>
      </div>
    </Layout>
  );
}
