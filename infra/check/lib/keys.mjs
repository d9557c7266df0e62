// Secrets that a prune cannot take away, and keys as files (issue 17, item 7).

import { collectProblems } from './util.mjs';

/** The Secret holding KEY_ENCRYPTION_KEY; created out of band, never owned by an overlay. */
export const KEYS_SECRET = 'tessera-keys';
/** Annotations that stop Argo CD and Flux from pruning or deleting an object. */
export const KEEP_ANNOTATIONS = {
  'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
};
/** Secrets each service must read as files, with the variables naming the files. */
const FILE_SECRETS = {
  verifier: { secret: KEYS_SECRET, variables: ['KEY_ENCRYPTION_KEY'] },
  ecosystem: { secret: 'ecosystem-trust-list-ca', variables: ['TRUST_LIST_CA_CERT_PEM', 'TRUST_LIST_CA_KEY_PEM'] },
};

const keptByGitOps = (object) =>
  Object.entries(KEEP_ANNOTATIONS).every(([key, value]) => object.metadata?.annotations?.[key] === value);

export function keyRules(overlay, objects, { examples = [] } = {}) {
  const { problems, want } = collectProblems();
  if (overlay === 'prod') {
    for (const namespace of objects.filter((o) => o.kind === 'Namespace')) {
      want(
        false,
        `Namespace/${namespace.metadata.name}: the prod overlay must not own its Namespace (a prune or delete -k removes it with every Secret in it); create it from infra/k8s/cluster/`,
      );
    }
    want(
      !objects.some((o) => o.kind === 'Secret' && o.metadata.name.startsWith(KEYS_SECRET)),
      `Secret ${KEYS_SECRET}: must be created out of band, not by the prod overlay`,
    );
    const example = examples.find((o) => o.kind === 'Secret' && o.metadata.name === KEYS_SECRET);
    if (want(example, `secret.example.yaml: Secret ${KEYS_SECRET} (KEY_ENCRYPTION_KEY) is missing`)) {
      want(
        keptByGitOps(example),
        `secret.example.yaml: Secret ${KEYS_SECRET} must carry ${Object.entries(KEEP_ANNOTATIONS)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
      );
      want(
        !example.metadata.labels?.['app.kubernetes.io/part-of'],
        `secret.example.yaml: Secret ${KEYS_SECRET} must not carry app.kubernetes.io/part-of (kubectl apply --prune -l selects by it)`,
      );
    }
  }
  for (const [service, { secret, variables }] of Object.entries(FILE_SECRETS)) {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === service);
    if (!deployment) continue;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const env = container.env ?? [];
    const volume = (pod.volumes ?? []).find((v) => v.secret?.secretName?.startsWith(secret));
    const mount = volume && (container.volumeMounts ?? []).find((m) => m.name === volume.name);
    want(mount?.readOnly === true, `Deployment ${service}: Secret ${secret} must be mounted read-only as files`);
    for (const variable of variables) {
      want(
        !env.some((v) => v.name === variable),
        `Deployment ${service}: ${variable} must come from a file (${variable}_FILE), not the environment`,
      );
      const file = env.find((v) => v.name === `${variable}_FILE`)?.value;
      want(
        mount && file?.startsWith(`${mount.mountPath}/`),
        `Deployment ${service}: ${variable}_FILE must name a file under the mounted Secret ${secret}`,
      );
    }
    if (volume) {
      const mode = volume.secret.defaultMode ?? 0o644;
      const group = pod.securityContext?.fsGroup;
      const readable =
        (mode & 0o004) !== 0 ||
        ((mode & 0o040) !== 0 && group !== undefined && group === (pod.securityContext?.runAsGroup ?? group));
      want(
        readable,
        `Deployment ${service}: the ${secret} files (mode ${mode.toString(8)}) are root's; set fsGroup to the service's group and a group-readable defaultMode`,
      );
    }
  }
  return problems;
}
