import type { ErrorDetail } from '@tessera/contracts';
import type { DevelopmentClaims } from './console-session.js';
import { ORG_ROLES } from './signed-in-user.js';

const ORG_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const SUBJECT = /^[\x21-\x7e]{1,200}$/;

/**
 * The development sign-in form: a subject, an e-mail, platform administration, and
 * one line per organisation, `org-1: owner, admin` (as `npm run token -- --org
 * org-1:owner,admin`). Returns the claims, or each problem at its field.
 */
export function parseDevelopmentClaims(form: {
  sub?: string;
  email?: string;
  platformAdmin?: string;
  organisations?: string;
}): { ok: true; claims: DevelopmentClaims } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const sub = (form.sub ?? '').trim();
  if (!SUBJECT.test(sub))
    details.push({ path: '/sub', message: 'Give a user id: 1 to 200 visible characters, no spaces.' });
  const email = (form.email ?? '').trim();
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email))
    details.push({ path: '/email', message: 'Give an e-mail address, or leave it empty.' });
  const orgRoles: Record<string, string[]> = {};
  const lines = (form.organisations ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  lines.forEach((line, index) => {
    const [orgId = '', roleList = ''] = line.split(/\s*:\s*/, 2);
    const roles = roleList.split(/[\s,]+/).filter(Boolean);
    const unknown = roles.filter((role) => !(ORG_ROLES as readonly string[]).includes(role));
    if (!ORG_ID.test(orgId) || roles.length === 0 || unknown.length > 0) {
      details.push({
        path: `/organisations/${index}`,
        message: `Line ${index + 1} ("${line}"): write an organisation id, a colon and its roles (${ORG_ROLES.join(', ')}), e.g. "org-1: owner, admin".`,
      });
      return;
    }
    orgRoles[orgId] = [...new Set([...(orgRoles[orgId] ?? []), ...roles])];
  });
  if (details.length > 0) return { ok: false, details };
  return {
    ok: true,
    claims: {
      sub,
      ...(email ? { email } : {}),
      platformAdmin: form.platformAdmin === 'on' || form.platformAdmin === 'true',
      orgRoles,
    },
  };
}
