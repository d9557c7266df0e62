import type { AllowedCredentialType, ErrorDetail } from '@tessera/contracts';

/**
 * Allowed credential types as a person types them, one per line: a `vct` URL (an
 * SD-JWT VC type) or an mdoc doctype; an explicit `dc+sd-jwt <vct>` or `mso_mdoc
 * <doctype>` also works. A value that is neither an http(s) URL nor a dotted doctype
 * must name its format.
 */
export function parseCredentialTypeLines(
  text: string | undefined,
): { ok: true; types: AllowedCredentialType[] } | { ok: false; details: ErrorDetail[] } {
  const types: AllowedCredentialType[] = [];
  const details: ErrorDetail[] = [];
  const lines = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  lines.forEach((line, index) => {
    const [first = '', ...rest] = line.split(/\s+/);
    const value = rest.join(' ');
    if (first === 'dc+sd-jwt' && value) types.push({ format: 'dc+sd-jwt', vct: value });
    else if (first === 'mso_mdoc' && value) types.push({ format: 'mso_mdoc', doctype: value });
    else if (rest.length === 0 && /^https?:\/\//.test(first)) types.push({ format: 'dc+sd-jwt', vct: first });
    else if (rest.length === 0 && /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/.test(first))
      types.push({ format: 'mso_mdoc', doctype: first });
    else
      details.push({
        path: `/allowedCredentialTypes/${index}`,
        message: `Line ${index + 1} ("${line}"): write a vct URL, an mdoc doctype, or "dc+sd-jwt <vct>" / "mso_mdoc <doctype>".`,
      });
  });
  return details.length > 0 ? { ok: false, details } : { ok: true, types };
}

/** The types back as lines (to edit them). */
export function credentialTypeLines(types: readonly AllowedCredentialType[]): string {
  return types.map((type) => (type.format === 'dc+sd-jwt' ? type.vct : type.doctype)).join('\n');
}
