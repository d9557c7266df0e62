// Shape of the External Secrets example (infra/external-secrets/): no CRD schema of the
// External Secrets Operator ships with kubernetes-models, so the fields this deployment
// relies on are checked by hand: the v1 API, a store the ExternalSecret names, a target
// that is the Secret the verifier mounts, and policies that keep the Secret when the
// ExternalSecret or the remote key goes away.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEEP_ANNOTATIONS, KEYS_SECRET } from './keys.mjs';
import { INFRA_ROOT, collectProblems } from './util.mjs';
import { parseYamlDocuments } from './kubernetes.mjs';

export const EXTERNAL_SECRETS_DIR = join(INFRA_ROOT, 'external-secrets');

export function loadExternalSecretExamples(dir = EXTERNAL_SECRETS_DIR) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) => parseYamlDocuments(readFileSync(join(dir, name), 'utf8'), join(dir, name)));
}

export function externalSecretRules(objects) {
  const { problems, want } = collectProblems();
  const stores = objects.filter((o) => ['SecretStore', 'ClusterSecretStore'].includes(o.kind));
  const externalSecrets = objects.filter((o) => o.kind === 'ExternalSecret');
  for (const object of objects) {
    want(
      object.apiVersion === 'external-secrets.io/v1',
      `${object.kind}/${object.metadata?.name}: apiVersion must be external-secrets.io/v1 (v1beta1 is deprecated), got ${object.apiVersion}`,
    );
    want(typeof object.metadata?.name === 'string', `${object.kind}: metadata.name is required`);
  }
  for (const store of stores) {
    const providers = Object.keys(store.spec?.provider ?? {});
    want(
      providers.length === 1,
      `${store.kind}/${store.metadata.name}: spec.provider must name exactly one provider, got ${providers.join(', ') || 'none'}`,
    );
  }
  const keys = externalSecrets.find((o) => o.spec?.target?.name === KEYS_SECRET);
  if (!want(keys, `no ExternalSecret targets Secret ${KEYS_SECRET}`)) return problems;
  const ref = keys.spec.secretStoreRef ?? {};
  want(
    stores.some((s) => s.kind === (ref.kind ?? 'SecretStore') && s.metadata.name === ref.name),
    `ExternalSecret/${keys.metadata.name}: secretStoreRef ${ref.kind ?? 'SecretStore'}/${ref.name} is not defined beside it`,
  );
  want(
    keys.spec.target.creationPolicy === 'Orphan',
    `ExternalSecret/${keys.metadata.name}: target.creationPolicy must be Orphan (deleting the ExternalSecret must leave ${KEYS_SECRET})`,
  );
  want(
    keys.spec.target.deletionPolicy === 'Retain',
    `ExternalSecret/${keys.metadata.name}: target.deletionPolicy must be Retain (a missing remote key must not delete ${KEYS_SECRET})`,
  );
  const annotations = keys.spec.target.template?.metadata?.annotations ?? {};
  want(
    Object.entries(KEEP_ANNOTATIONS).every(([key, value]) => annotations[key] === value),
    `ExternalSecret/${keys.metadata.name}: the Secret's template must carry the Argo CD and Flux keep annotations`,
  );
  const data = keys.spec.data ?? [];
  want(
    data.some((d) => d.secretKey === 'KEY_ENCRYPTION_KEY' && d.remoteRef?.key),
    `ExternalSecret/${keys.metadata.name}: data must map KEY_ENCRYPTION_KEY from a remoteRef.key`,
  );
  want(
    /^\d+[smh]$/.test(keys.spec.refreshInterval ?? ''),
    `ExternalSecret/${keys.metadata.name}: refreshInterval must be a duration such as 1h`,
  );
  return problems;
}
