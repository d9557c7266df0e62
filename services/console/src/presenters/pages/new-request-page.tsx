import { DC_API_PROTOCOL_CHOICES } from '../../domain/dc-api-protocol-choices.js';
import type { RequestForm } from '../../use-cases/load-request-form.js';
import { Empty, Section } from '../components/display.js';
import { ChoiceGroup, PostForm, SelectField, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function NewRequestPage(props: { context: PageContext; orgId: string; form: RequestForm }) {
  const { context, orgId, form } = props;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const flash = context.flash;
  return (
    <Layout
      context={context}
      frame={{
        title: 'New presentation request',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: org },
          { label: 'Sessions', href: `${org}/sessions` },
          { label: 'New request' },
        ],
      }}
    >
      {form.verifiers.length === 0 ? (
        <Empty>
          Add a <a href={`${org}/verifiers`}>verifier</a> first.
        </Empty>
      ) : (
        <Section title="Ask a wallet for a presentation" id="request">
          <PostForm action={`${org}/sessions`} csrfToken={context.csrfToken} label="New presentation request">
            <SelectField
              name="verifierId"
              label="Verifier"
              required
              value={valueOf(flash, 'verifierId')}
              options={form.verifiers.map((verifier) => ({
                value: verifier.verifierId,
                label: verifier.clientMetadata?.client_name
                  ? `${verifier.verifierId} (${verifier.clientMetadata.client_name})`
                  : verifier.verifierId,
              }))}
            />
            <ChoiceGroup
              name="source"
              type="radio"
              label="What to ask for"
              required
              options={[
                { value: 'template', label: 'A template of this organisation' },
                ...(form.intents.length > 0 ? [{ value: 'intent', label: "An ecosystem's intent" }] : []),
              ]}
              checked={[valueOf(flash, 'source', 'template')!]}
            />
            <SelectField
              name="templateId"
              label="Template"
              blank={form.templates.length === 0 ? 'No template yet' : undefined}
              value={valueOf(flash, 'templateId')}
              options={form.templates.map((template) => ({ value: template.id, label: template.name }))}
            />
            {form.intents.length > 0 ? (
              <SelectField
                name="intent"
                label="Intent"
                value={valueOf(flash, 'intent')}
                problem={problemAt(flash, '/intent')}
                options={form.intents.map((choice) => ({
                  value: `${choice.ecosystemId}|${choice.intent}`,
                  label: `${choice.intent} (${choice.ecosystemName})`,
                }))}
              />
            ) : null}
            <SelectField
              name="responseMode"
              label="Response mode"
              required
              value={valueOf(flash, 'responseMode', 'direct_post')}
              problem={problemAt(flash, '/responseMode')}
              options={[
                { value: 'direct_post', label: 'direct_post: a wallet scans the QR code or opens the link' },
                { value: 'direct_post.jwt', label: 'direct_post.jwt: the same, the answer encrypted' },
                { value: 'dc_api', label: 'dc_api: through a browser (the Digital Credentials API)' },
                { value: 'dc_api.jwt', label: 'dc_api.jwt: the same, the answer encrypted' },
              ]}
            />
            <TextField
              name="expectedOrigins"
              label="Expected origins"
              value={valueOf(flash, 'expectedOrigins')}
              problem={problemAt(flash, '/expectedOrigins')}
              hint="DC API modes only: the origins of the pages that will ask the browser, separated by spaces."
            />
            <ChoiceGroup
              name="dcApiProtocols"
              type="checkbox"
              label="DC API protocols"
              hint="DC API modes only, offered in the order listed. None chosen: the signed OpenID4VP request."
              problem={problemAt(flash, '/dcApiProtocols')}
              options={DC_API_PROTOCOL_CHOICES.map((choice) => ({ value: choice.protocol, label: choice.label }))}
              checked={(valueOf(flash, 'dcApiProtocols') ?? '').split('\n').filter(Boolean)}
            />
            <TextField
              name="expiresInSeconds"
              label="Expires after (seconds)"
              type="number"
              min="1"
              max="86400"
              value={valueOf(flash, 'expiresInSeconds')}
              problem={problemAt(flash, '/expiresInSeconds')}
              hint="Empty: the platform's default."
            />
            <button type="submit">Create the request</button>
          </PostForm>
        </Section>
      )}
    </Layout>
  );
}
