// kube-score / Polaris-equivalent rules over the rendered workloads (issue 17, item 9):
// images (no latest, digests in prod, pull policy), resources sized from measured usage,
// security context of every container, distinct probes, PDBs by maxUnavailable, spread.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectProblems, REPO_ROOT } from './util.mjs';

/** A migrate run's peak resident memory (MB): /usr/bin/time on `node dist/migrate.js`, every migration applied (infra/README.md, "Resources"). */
export const MIGRATE_PEAK_MB = 100;
const MIB = 1024 * 1024;

/**
 * Resident memory per service from the soak benchmarks in bench/RESULTS.md: `steady` is
 * the value at the end of the soak, `peak` the largest figure the row names.
 */
export function measuredMemory(text = readFileSync(join(REPO_ROOT, 'bench', 'RESULTS.md'), 'utf8')) {
  const measured = {};
  for (const service of ['verifier', 'ecosystem', 'status-list', 'console']) {
    const row = text.split('\n').find((line) => line.startsWith(`| ${service}-soak |`) && /resident memory/.test(line));
    if (!row) continue;
    const cells = row.split('|').map((cell) => cell.trim());
    // The value and the baseline columns: resident at the end of the soak and after warm-up.
    const steady = Math.max(...[cells[3], cells[4]].map((cell) => Number(/(\d+) MB/.exec(cell)?.[1] ?? 0)));
    const peak = Math.max(...[...row.matchAll(/(\d+) MB/g)].map((m) => Number(m[1])));
    measured[service] = { steady, peak };
  }
  return measured;
}

/** A Kubernetes quantity in bytes (memory: Ki, Mi, Gi, k, M, G). */
export function bytesOf(quantity) {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(String(quantity ?? ''));
  if (!match) return NaN;
  const unit = { Ki: 1024, Mi: MIB, Gi: 1024 * MIB, k: 1e3, M: 1e6, G: 1e9 }[match[2]] ?? 1;
  return Number(match[1]) * unit;
}

export function workloadRules(overlay, objects, { measured = measuredMemory() } = {}) {
  const { problems, want } = collectProblems();
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
  for (const deployment of objects.filter(
    (o) => o.kind === 'Deployment' && o.spec.template.metadata?.labels?.['app.kubernetes.io/component'] === 'server',
  )) {
    const name = deployment.metadata.name;
    const pod = deployment.spec.template.spec;
    const labels = deployment.spec.template.metadata.labels;
    want(
      pod.automountServiceAccountToken === false,
      `Deployment ${name}: automountServiceAccountToken must be false (no API access needed)`,
    );
    want(!pod.hostNetwork && !pod.hostPID && !pod.hostIPC, `Deployment ${name}: no host namespaces`);
    want(
      pod.securityContext?.seccompProfile?.type === 'RuntimeDefault',
      `Deployment ${name}: seccompProfile RuntimeDefault`,
    );
    want(
      deployment.spec.strategy?.rollingUpdate?.maxUnavailable === 0,
      `Deployment ${name}: rollingUpdate.maxUnavailable 0 (a rollout never drops below the current capacity)`,
    );

    // Spread: over nodes everywhere, over zones in prod; each constraint selects this service's pods.
    const spread = pod.topologySpreadConstraints ?? [];
    const spreadsOver = (key) =>
      spread.some(
        (c) =>
          c.topologyKey === key &&
          Object.entries(c.labelSelector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
          (c.labelSelector?.matchLabels?.['app.kubernetes.io/name'] === name ||
            c.matchLabelKeys?.includes('app.kubernetes.io/name')),
      );
    want(
      spreadsOver('kubernetes.io/hostname'),
      `Deployment ${name}: topologySpreadConstraints over kubernetes.io/hostname, selecting its own pods`,
    );
    if (overlay === 'prod')
      want(
        spreadsOver('topology.kubernetes.io/zone'),
        `Deployment ${name}: topologySpreadConstraints over topology.kubernetes.io/zone in prod`,
      );

    for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
      const where = `Deployment ${name} container ${container.name}`;
      // Images: never latest; in prod immutable (digest), so IfNotPresent is safe; a mutable tag must be pulled Always.
      const image = container.image ?? '';
      const digest = /@sha256:[0-9a-f]{64}$/.test(image);
      const tag = /:([^/@]+)(@|$)/.exec(image.split('/').pop())?.[1];
      want(digest || (tag && tag !== 'latest'), `${where}: image ${image} has no tag or digest, or uses latest`);
      if (overlay === 'prod')
        want(digest, `${where}: image ${image} must be referenced by digest in prod (kustomize images: digest)`);
      want(
        digest || container.imagePullPolicy === 'Always' || overlay === 'dev',
        `${where}: image ${image} is a mutable tag: pin a digest or pull Always`,
      );
      // Security context, per container (Polaris checks each, init containers too).
      const security = { ...pod.securityContext, ...container.securityContext };
      want(security.runAsNonRoot === true, `${where}: runAsNonRoot`);
      want(container.securityContext?.readOnlyRootFilesystem === true, `${where}: readOnlyRootFilesystem`);
      want(
        container.securityContext?.allowPrivilegeEscalation === false && !container.securityContext?.privileged,
        `${where}: no privilege escalation, not privileged`,
      );
      want(
        container.securityContext?.capabilities?.drop?.includes('ALL') &&
          !(container.securityContext?.capabilities?.add?.length > 0),
        `${where}: drop ALL capabilities, add none`,
      );
      // Resources: requests and limits, memory sized from what was measured.
      const resources = container.resources ?? {};
      if (
        !want(
          resources.requests?.cpu && resources.requests?.memory && resources.limits?.memory && resources.limits?.cpu,
          `${where}: requests (cpu, memory) and limits (cpu, memory)`,
        )
      )
        continue;
      const request = bytesOf(resources.requests.memory) / 1e6;
      const limit = bytesOf(resources.limits.memory) / 1e6;
      const usage = container.name === 'migrate' ? { steady: MIGRATE_PEAK_MB, peak: MIGRATE_PEAK_MB } : measured[name];
      if (
        want(
          usage,
          `${where}: no measured memory for ${name} in bench/RESULTS.md (a "${name}-soak" resident memory row)`,
        )
      ) {
        want(
          request >= usage.steady,
          `${where}: memory request ${resources.requests.memory} is below the measured ${usage.steady} MB resident`,
        );
        want(
          limit >= 1.5 * usage.peak,
          `${where}: memory limit ${resources.limits.memory} leaves less than 1.5x the measured peak ${usage.peak} MB`,
        );
      }
      if (container.name !== 'migrate') {
        const config = configMaps.get(container.envFrom?.find((s) => s.configMapRef)?.configMapRef.name) ?? {};
        const heap = Number(/--max-old-space-size=(\d+)/.exec(config.NODE_OPTIONS ?? '')?.[1]);
        want(
          heap > 0 && heap * MIB <= 0.85 * bytesOf(resources.limits.memory),
          `${where}: NODE_OPTIONS --max-old-space-size (${heap || 'unset'} MiB) must be set and at most 85 % of the memory limit ${resources.limits.memory}`,
        );
      }
    }
    // Probes: all three, and readiness distinct from liveness (a dependency must never restart the pod).
    const server = pod.containers[0];
    want(
      server.startupProbe && server.livenessProbe && server.readinessProbe,
      `Deployment ${name}: startup, liveness and readiness probes`,
    );
    want(
      server.readinessProbe?.httpGet?.path !== server.livenessProbe?.httpGet?.path,
      `Deployment ${name}: readiness and liveness probes must differ (liveness must not depend on dependencies)`,
    );

    const pdb = objects.find((o) => o.kind === 'PodDisruptionBudget' && o.metadata.name === name);
    if (pdb) {
      want(
        pdb.spec.maxUnavailable !== undefined && pdb.spec.minAvailable === undefined,
        `PodDisruptionBudget ${name}: use maxUnavailable (minAvailable blocks drains at low replica counts and does not scale with the HPA)`,
      );
      want(pdb.spec.maxUnavailable === 1, `PodDisruptionBudget ${name}: maxUnavailable 1`);
    }
  }
  return problems;
}
