import type { IntentTemplate, TemplateRole } from '@tessera/contracts';
import type { IntentView } from '../../use-cases/load-intent.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Facts, Section, Time } from '../components/display.js';
import { ActionButton, PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { NoticeEditor } from '../components/notice-editor.js';
import { NoticeView } from '../components/notice-view.js';
import type { PageContext } from '../page-context.js';

const ROLES: Array<{ role: TemplateRole; title: string; meaning: string }> = [
  {
    role: 'verifier',
    title: 'Templates verifiers ask with',
    meaning: 'verification templates: the DCQL query a verifier sends for this intent',
  },
  {
    role: 'issuer',
    title: 'Templates issuers issue with',
    meaning: 'credential templates an issuer uses for this intent',
  },
];

export function IntentPage(props: { context: PageContext; view: IntentView }) {
  const { context, view } = props;
  const { intent, ecosystem } = view;
  const base = `/intents/${encodeURIComponent(intent.id)}`;
  const flash = context.flash;
  const nameOf = (template: IntentTemplate) => view.templateChoices.find((choice) => choice.id === template.templateId);
  return (
    <Layout
      context={context}
      frame={{
        title: `Intent ${intent.name}`,
        breadcrumbs: [
          { label: 'Ecosystems', href: '/ecosystems' },
          { label: ecosystem.name, href: `/ecosystems/${encodeURIComponent(ecosystem.id)}` },
          { label: intent.name },
        ],
      }}
    >
      <Section title="About" id="about">
        <Facts
          items={[
            ['Key', <code>{intent.name}</code>],
            ['Description', intent.description || '—'],
            [
              'Changed',
              <>
                <Time at={intent.lastChangedDateTime} /> by {intent.lastChangedBy}
              </>,
            ],
          ]}
        />
        {view.lead ? (
          <>
            <PostForm action={base} csrfToken={context.csrfToken} label="Edit the intent">
              <TextField
                name="name"
                label="Intent name"
                required
                value={valueOf(flash, 'name', intent.name)}
                problem={problemAt(flash, '/name')}
              />
              <TextArea
                name="description"
                label="Description"
                rows={2}
                value={valueOf(flash, 'description', intent.description)}
                problem={problemAt(flash, '/description')}
              />
              <button type="submit">Save the intent</button>
            </PostForm>
            <ActionButton action={`${base}/delete`} csrfToken={context.csrfToken} label="Delete the intent" danger />
            <p class="hint">An intent with templates or a notice cannot be deleted: remove them first.</p>
          </>
        ) : null}
      </Section>
      {ROLES.map(({ role, title, meaning }) => {
        const templates = view.templates.filter((template) => template.role === role);
        return (
          <Section title={title} id={`templates-${role}`}>
            <p class="hint">The {meaning}.</p>
            {templates.length === 0 ? (
              <Empty>None mapped.</Empty>
            ) : (
              <DataTable
                label={`${title}: the mappings`}
                caption={title}
                columns={['Template', 'For', 'Why', view.lead ? 'Change' : null]}
              >
                {templates.map((template) => (
                  <tr>
                    <td>
                      {nameOf(template)?.name ?? ''} <code>{template.templateId}</code>
                    </td>
                    <td>{template.orgId ?? 'every member'}</td>
                    <td>{template.description ?? '—'}</td>
                    {view.lead ? (
                      <td>
                        <PostForm
                          action={`${base}/templates/${encodeURIComponent(template.id)}`}
                          csrfToken={context.csrfToken}
                          label={`Change the mapping of ${template.templateId}`}
                          class="inline-action"
                        >
                          <SelectField
                            id={`role-${template.id}`}
                            name="role"
                            label="Role"
                            value={template.role}
                            options={[
                              { value: 'verifier', label: 'verifier' },
                              { value: 'issuer', label: 'issuer' },
                            ]}
                          />
                          <TextField
                            id={`description-${template.id}`}
                            name="description"
                            label="Why"
                            value={template.description ?? ''}
                          />
                          <button type="submit" class="secondary">
                            Save
                          </button>
                        </PostForm>
                        <ActionButton
                          action={`${base}/templates/${encodeURIComponent(template.id)}/delete`}
                          csrfToken={context.csrfToken}
                          label="Remove"
                          accessibleLabel={`Remove the mapping of ${template.templateId}`}
                          danger
                        />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </DataTable>
            )}
          </Section>
        );
      })}
      {view.lead ? (
        <Section title="Map a template" id="map-template">
          <PostForm action={`${base}/templates`} csrfToken={context.csrfToken} label="Map a template">
            {view.templateChoices.length > 0 ? (
              <SelectField
                name="templateId"
                label="Verification template"
                blank="— or type an id below —"
                value={valueOf(flash, 'templateId')}
                problem={problemAt(flash, '/templateId')}
                options={view.templateChoices.map((choice) => ({
                  value: choice.id,
                  label: `${choice.name} (${choice.orgId})`,
                }))}
              />
            ) : null}
            <TextField
              name="templateIdText"
              label="Template id"
              value={valueOf(flash, 'templateIdText')}
              hint="A template another organisation shared with you, or an issuer's credential template."
            />
            <SelectField
              name="role"
              label="Role"
              required
              value={valueOf(flash, 'role', 'verifier')}
              problem={problemAt(flash, '/role')}
              options={[
                { value: 'verifier', label: 'verifier' },
                { value: 'issuer', label: 'issuer' },
              ]}
            />
            <TextField
              name="description"
              label="Why it is needed"
              value={valueOf(flash, 'description')}
              problem={problemAt(flash, '/description')}
            />
            <TextField
              name="orgId"
              label="Only for organisation"
              value={valueOf(flash, 'orgId')}
              problem={problemAt(flash, '/orgId')}
              hint="Empty: every member. An organisation id: an override for the lead or one active member."
            />
            <button type="submit">Map the template</button>
          </PostForm>
        </Section>
      ) : null}
      <Section title="Consent notice" id="notice">
        {view.notice ? (
          <>
            {view.latestNoticeVersion && view.latestNoticeVersion > 1 ? (
              <nav aria-label="Notice versions" class="pagination">
                <span>Versions:</span>
                {Array.from({ length: view.latestNoticeVersion }, (_, index) => index + 1).map((version) =>
                  version === view.notice!.version ? (
                    <strong aria-current="page">{version}</strong>
                  ) : (
                    <a href={`${base}?noticeVersion=${version}#notice`}>{version}</a>
                  ),
                )}
              </nav>
            ) : null}
            <NoticeView notice={view.notice} />
          </>
        ) : (
          <Empty>This intent has no notice yet.</Empty>
        )}
        <NoticeEditor
          context={context}
          action={`${base}/notice`}
          current={view.notice}
          exists={!!view.latestNoticeVersion}
        />
      </Section>
    </Layout>
  );
}
