import type { TemplateRole } from '@tessera/contracts';

export interface TemplateMapping {
  templateId: string;
  role: TemplateRole;
  /** null: the ecosystem-wide mapping; otherwise the organisation it overrides for. */
  orgId: string | null;
}

export interface PickTemplateResult {
  templateId: string;
  scope: 'organisation' | 'ecosystem';
}

/** The organisation's own override wins over the ecosystem-wide mapping (ECOSYSTEM.md, Resolution). */
export function pickTemplate(
  mappings: readonly TemplateMapping[],
  orgId: string,
  role: TemplateRole,
): PickTemplateResult | undefined {
  const ofRole = mappings.filter((mapping) => mapping.role === role);
  const override = ofRole.find((mapping) => mapping.orgId === orgId);
  if (override) return { templateId: override.templateId, scope: 'organisation' };
  const global = ofRole.find((mapping) => mapping.orgId === null);
  return global ? { templateId: global.templateId, scope: 'ecosystem' } : undefined;
}
