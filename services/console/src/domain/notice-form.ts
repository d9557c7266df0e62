import type { IntentNotice, IntentNoticeBody } from '@tessera/contracts';

/**
 * The consent notice form: one text field per notice field, lists one entry per line
 * (`dpv:Term: what it means` for purposes, `name: role` for recipients). Parsing is
 * lenient about spacing and leaves every rule to the ecosystem service, whose problems
 * come back at their paths (`/purposes/0/id`, …).
 */
export type NoticeForm = Record<(typeof NOTICE_FIELDS)[number], string>;

export const NOTICE_FIELDS = [
  'title',
  'description',
  'language',
  'controllerName',
  'controllerContact',
  'controllerUrl',
  'purposes',
  'personalDataCategories',
  'processingOperations',
  'legalBasis',
  'retention',
  'recipients',
  'storageLocations',
  'rightsUrl',
  'withdrawalMethod',
  'noticeUrl',
] as const;

const lines = (text: string | undefined) =>
  (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
const items = (text: string | undefined) =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
const optional = (text: string | undefined) => {
  const value = (text ?? '').trim();
  return value === '' ? undefined : value;
};

/** `dpv:Term: description` → the term and its description (the description may hold colons). */
function splitTerm(line: string): { id: string; description: string } {
  const match = /^(\S+:\S+?)\s*:\s*(.*)$/.exec(line);
  return match ? { id: match[1]!, description: match[2]! } : { id: line, description: '' };
}

/** `name: role` (the last colon separates). */
function splitRecipient(line: string): { name: string; role: string } {
  const at = line.lastIndexOf(':');
  return at < 0 ? { name: line, role: '' } : { name: line.slice(0, at).trim(), role: line.slice(at + 1).trim() };
}

export function noticeBodyOfForm(form: Partial<NoticeForm>): IntentNoticeBody {
  const controllerUrl = optional(form.controllerUrl);
  const description = optional(form.description);
  const recipients = lines(form.recipients).map(splitRecipient);
  const storageLocations = items(form.storageLocations);
  const rightsUrl = optional(form.rightsUrl);
  const withdrawalMethod = optional(form.withdrawalMethod);
  const noticeUrl = optional(form.noticeUrl);
  return {
    title: (form.title ?? '').trim(),
    ...(description ? { description } : {}),
    language: optional(form.language) ?? 'en',
    controller: {
      name: (form.controllerName ?? '').trim(),
      contact: (form.controllerContact ?? '').trim(),
      ...(controllerUrl ? { url: controllerUrl } : {}),
    },
    purposes: lines(form.purposes).map(splitTerm),
    personalDataCategories: items(form.personalDataCategories),
    processingOperations: items(form.processingOperations),
    legalBasis: (form.legalBasis ?? '').trim(),
    retention: { duration: (form.retention ?? '').trim() },
    ...(recipients.length > 0 ? { recipients } : {}),
    ...(storageLocations.length > 0 ? { storageLocations } : {}),
    ...(rightsUrl ? { rightsUrl } : {}),
    ...(withdrawalMethod ? { withdrawalMethod } : {}),
    ...(noticeUrl ? { noticeUrl } : {}),
  };
}

/** The form filled with a stored version (to edit it into the next). */
export function formOfNotice(notice: IntentNotice | undefined): Partial<NoticeForm> {
  if (!notice) return { language: 'en', legalBasis: 'dpv:Consent', retention: 'P30D' };
  return {
    title: notice.title,
    description: notice.description ?? '',
    language: notice.language ?? 'en',
    controllerName: notice.controller.name,
    controllerContact: notice.controller.contact,
    controllerUrl: notice.controller.url ?? '',
    purposes: notice.purposes.map((purpose) => `${purpose.id}: ${purpose.description}`).join('\n'),
    personalDataCategories: notice.personalDataCategories.join(', '),
    processingOperations: notice.processingOperations.join(', '),
    legalBasis: notice.legalBasis,
    retention: notice.retention.duration,
    recipients: (notice.recipients ?? []).map((recipient) => `${recipient.name}: ${recipient.role}`).join('\n'),
    storageLocations: (notice.storageLocations ?? []).join(', '),
    rightsUrl: notice.rightsUrl ?? '',
    withdrawalMethod: notice.withdrawalMethod ?? '',
    noticeUrl: notice.noticeUrl ?? '',
  };
}

/** `dpv:ServiceProvision` → `Service provision`: a DPV term as a person reads it. */
export function readableTerm(term: string): string {
  const name = term.includes(':') ? term.slice(term.indexOf(':') + 1) : term;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** `P1Y6M`, `P30D`, `PT12H` → `1 year 6 months`, `30 days`, `12 hours`. */
export function readableDuration(duration: string): string {
  const match = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(duration);
  if (!match) return duration;
  const units = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  const parts = match
    .slice(1)
    .map((value, index) => (value ? `${Number(value)} ${units[index]}${Number(value) === 1 ? '' : 's'}` : undefined))
    .filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : duration;
}
