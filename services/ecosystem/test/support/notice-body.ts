/** A minimal valid notice body (ISO/IEC TS 27560 fields with DPV terms). */
export function noticeBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Age check at the counter',
    controller: { name: 'Lead Org', contact: 'privacy@lead.example' },
    purposes: [{ id: 'dpv:ServiceProvision', description: 'Check that the customer is of age' }],
    personalDataCategories: ['pd:Age'],
    processingOperations: ['dpv:Collect'],
    legalBasis: 'dpv:Consent',
    retention: { duration: 'P30D' },
    ...overrides,
  };
}
