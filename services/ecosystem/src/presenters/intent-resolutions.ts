import type { IntentResolveResult } from '@tessera/contracts';
import type { IntentResolution } from '../use-cases/resolve-intent.js';
import { presentNotice } from './intent-notices.js';

/** The reply data of `ecosystem.v1.intent.resolve`; the notice in the shape `GET /v1/intent/{id}/notice` returns. */
export function presentIntentResolution(resolution: IntentResolution): IntentResolveResult {
  return {
    intentId: resolution.intent.id,
    intent: resolution.intent.name,
    templateId: resolution.templateId,
    scope: resolution.scope,
    ...(resolution.notice ? { notice: presentNotice(resolution.notice) } : {}),
    trustPolicy: resolution.trustPolicy,
  };
}
