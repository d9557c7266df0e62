import type { IntentNotice } from '@tessera/contracts';
import { formOfNotice, type NoticeForm } from '../../domain/notice-form.js';
import type { PageContext } from '../page-context.js';
import { PostForm, TextArea, TextField, problemAt, valueOf } from './forms.js';

/** How one notice field is asked for; `problemPath` is where the ecosystem service reports a problem with it. */
interface NoticeFieldLayout {
  name: keyof NoticeForm;
  label: string;
  problemPath: string;
  required?: boolean;
  type?: 'url';
  /** A text area of this many rows (a list, one entry per line, or prose); a single line otherwise. */
  rows?: number;
  hint?: string;
  id?: string;
}

// The form's order is the order a person reads a notice in (controller, then what, why, how long, to whom).
const NOTICE_FIELD_LAYOUT: NoticeFieldLayout[] = [
  { name: 'title', id: 'notice-title-field', label: 'Title', required: true, problemPath: '/title' },
  { name: 'description', label: 'What happens', rows: 2, problemPath: '/description' },
  { name: 'language', label: 'Language', problemPath: '/language', hint: 'A BCP 47 tag, e.g. en or de-AT.' },
  { name: 'controllerName', label: 'Controller', required: true, problemPath: '/controller/name' },
  {
    name: 'controllerContact',
    label: 'Controller contact',
    required: true,
    problemPath: '/controller/contact',
    hint: 'An e-mail address or a web address.',
  },
  { name: 'controllerUrl', label: 'Controller web site', type: 'url', problemPath: '/controller/url' },
  {
    name: 'purposes',
    label: 'Purposes',
    required: true,
    rows: 3,
    problemPath: '/purposes',
    hint: 'One per line: a DPV purpose term, a colon, what it means to the person. E.g. dpv:ServiceProvision: To let you buy age-restricted goods.',
  },
  {
    name: 'personalDataCategories',
    label: 'Personal data categories',
    required: true,
    problemPath: '/personalDataCategories',
    hint: 'DPV terms separated by commas, e.g. pd:Age, pd:Name.',
  },
  {
    name: 'processingOperations',
    label: 'Processing operations',
    problemPath: '/processingOperations',
    hint: 'DPV terms separated by commas, e.g. dpv:Collect, dpv:Use.',
  },
  {
    name: 'legalBasis',
    label: 'Legal basis',
    required: true,
    problemPath: '/legalBasis',
    hint: 'A DPV term, e.g. dpv:Consent.',
  },
  {
    name: 'retention',
    label: 'Kept for',
    required: true,
    problemPath: '/retention',
    hint: 'An ISO 8601 duration, e.g. P30D (30 days) or PT1H (one hour).',
  },
  { name: 'recipients', label: 'Recipients', rows: 2, problemPath: '/recipients', hint: 'One per line: name: role.' },
  {
    name: 'storageLocations',
    label: 'Stored in',
    problemPath: '/storageLocations',
    hint: 'Country codes separated by commas, e.g. DE, AT.',
  },
  { name: 'rightsUrl', label: 'Rights page', type: 'url', problemPath: '/rightsUrl' },
  { name: 'withdrawalMethod', label: 'How to withdraw consent', problemPath: '/withdrawalMethod' },
  { name: 'noticeUrl', label: 'Full notice', type: 'url', problemPath: '/noticeUrl' },
];

/** The form that writes an intent's consent notice (its first or next version), refilled after a refusal. */
export function NoticeEditor(props: {
  context: PageContext;
  action: string;
  current: IntentNotice | undefined;
  exists: boolean;
}) {
  const flash = props.context.flash;
  const current = formOfNotice(props.current);
  return (
    <PostForm action={props.action} csrfToken={props.context.csrfToken} label="Write the notice">
      <h3>{props.exists ? 'Write the next version' : 'Write the notice'}</h3>
      <input type="hidden" name="exists" value={props.exists ? 'true' : 'false'} />
      {NOTICE_FIELD_LAYOUT.map(({ problemPath, rows, type, ...field }) => {
        const common = {
          ...field,
          value: valueOf(flash, field.name, current[field.name]),
          problem: problemAt(flash, problemPath),
        };
        return rows ? <TextArea {...common} rows={rows} /> : <TextField {...common} type={type} />;
      })}
      <button type="submit">{props.exists ? 'Issue the next version' : 'Issue the notice'}</button>
    </PostForm>
  );
}
