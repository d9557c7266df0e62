import { DC_API_PROTOCOL_CHOICES } from '../../domain/dc-api-protocol-choices.js';
import type { RequestForm } from '../../use-cases/load-request-form.js';
import { Empty, Section } from '../components/display.js';
import { ChoiceGroup, PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

/** The create body's fields under "Advanced options": the element opens again when one was filled in or refused. */
const ADVANCED_FIELDS = [
  'payloadState',
  'signerMethod',
  'clientIdPrefix',
  'presentationDataTtlSeconds',
  'transactionData',
  'redirectUri',
  'ecosystemId',
];
const ADVANCED_PATHS = [
  '/payloadState',
  '/requestSigner',
  '/presentationDataTtlSeconds',
  '/transactionData',
  '/redirectUri',
  '/ecosystemId',
];

export function NewRequestPage(props: { context: PageContext; orgId: string; form: RequestForm }) {
  const { context, orgId, form } = props;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const flash = context.flash;
  const advancedOpen =
    problemAt(flash, ...ADVANCED_PATHS) !== undefined || ADVANCED_FIELDS.some((name) => valueOf(flash, name));
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
            <details class="subpanel" id="advanced" open={advancedOpen}>
              <summary>Advanced options</summary>
              <TextField
                name="payloadState"
                label="Payload state"
                value={valueOf(flash, 'payloadState')}
                problem={problemAt(flash, '/payloadState')}
                hint="Your own value to find the session by, sent to the wallet as the OAuth state: letters, digits and . _ ~ - only; at least 22 random characters when the query does not ask for holder binding. Empty: the verifier makes one."
              />
              <SelectField
                name="signerMethod"
                label="Request signer"
                blank="The default: an intent's template signer, else the P-256 certificate"
                value={valueOf(flash, 'signerMethod')}
                problem={problemAt(flash, '/requestSigner/method')}
                options={[
                  { value: 'X509_P256', label: 'X509_P256: the P-256 request-signing certificate' },
                  { value: 'X509_ED25519', label: 'X509_ED25519: the Ed25519 request-signing certificate' },
                  { value: 'DID', label: 'DID: the organisation’s did:jwk' },
                ]}
              />
              <SelectField
                name="clientIdPrefix"
                label="Client identifier prefix"
                blank="The default: x509_hash"
                value={valueOf(flash, 'clientIdPrefix')}
                problem={problemAt(flash, '/requestSigner/clientIdPrefix')}
                hint="Certificate signers only; ignored for DID."
                options={[
                  { value: 'x509_hash', label: 'x509_hash: the hash of the certificate' },
                  { value: 'x509_san_dns', label: 'x509_san_dns: the certificate’s DNS name' },
                ]}
              />
              <TextField
                name="presentationDataTtlSeconds"
                label="Keep the presentation data for (seconds)"
                type="number"
                min="1"
                max="31536000"
                value={valueOf(flash, 'presentationDataTtlSeconds')}
                problem={problemAt(flash, '/presentationDataTtlSeconds')}
                hint="After verification; only shortens the platform's lifetime. Empty: the platform's."
              />
              <TextArea
                name="transactionData"
                label="Transaction data (JSON)"
                code
                rows={4}
                value={valueOf(flash, 'transactionData')}
                problem={problemAt(flash, '/transactionData')}
                hint='An array of objects, each with its type and the credential query ids it binds, e.g. [{ "type": "payment", "credential_ids": ["pid"] }]. Empty: none.'
              />
              <TextField
                name="redirectUri"
                label="Redirect address"
                type="url"
                value={valueOf(flash, 'redirectUri')}
                problem={problemAt(flash, '/redirectUri')}
                hint="direct_post modes: where a wallet on the same device sends the person after a verified answer (http or https)."
              />
              <SelectField
                name="ecosystemId"
                label="Trust an ecosystem's list"
                blank="No: the organisation's trust anchors"
                value={valueOf(flash, 'ecosystemId')}
                problem={problemAt(flash, '/ecosystemId')}
                hint="A request from a template only: verify the answer against this ecosystem's trust list instead."
                options={form.ecosystems.map((ecosystem) => ({ value: ecosystem.id, label: ecosystem.name }))}
              />
            </details>
            <button type="submit">Create the request</button>
          </PostForm>
        </Section>
      )}
    </Layout>
  );
}
