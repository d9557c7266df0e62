# syntax=docker/dockerfile:1
# The production image of every Tessera service: one Dockerfile, the service chosen by
# build arguments. Build from the repository root (the context must hold the whole
# workspace; .dockerignore keeps it to sources):
#   docker build --build-arg SERVICE=verifier    --build-arg PORT=3001 -t tessera/verifier .
#   docker build --build-arg SERVICE=ecosystem   --build-arg PORT=3002 -t tessera/ecosystem .
#   docker build --build-arg SERVICE=status-list --build-arg PORT=3003 -t tessera/status-list .
# SERVICE is a folder under services/ (its package is @tessera/<SERVICE>); PORT is the
# service's DEFAULT_PORT (src/config.ts), checked during the build. The bundle copied in is
# what `pnpm deploy` makes of the package: its package.json "files" (dist, and drizzle for
# a service with a database) and its production node_modules.
# Run: node dist/main.js (the default) or the migrate-and-exit entry point:
#   docker run --rm -e DATABASE_URL=... tessera/verifier node dist/migrate.js
# infra/check/run-infra-checks.mjs carries out these stages without a container engine,
# for each service with its build arguments, and checks the house rules on them.

# Node.js 24 (LTS, maintained until April 2028; Node 20 left support in April 2026), pinned by
# digest so a rebuild gets the same base; the tag documents what the digest is
# (24.18.0 when pinned). Update path: Renovate (renovate.json, "docker" manager) opens
# a pull request per new digest, or by hand (infra/README.md, "Images"):
#   docker buildx imagetools inspect node:24-bookworm-slim --format '{{json .Manifest.Digest}}'
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
# No defaults: an image built without naming its service would be some other service's.
ARG SERVICE
ARG PORT

# --- tools: the pinned pnpm (Corepack cannot fetch it) and turbo -------------
FROM ${NODE_IMAGE} AS tools
RUN npm install --global pnpm@10.34.8 turbo@2.11.11 && npm cache clean --force

# --- prune: only this service and the workspace packages it depends on -------
FROM tools AS prune
ARG SERVICE
ARG PORT
WORKDIR /repo
COPY . .
RUN [ -n "${SERVICE}" ] && [ -f "services/${SERVICE}/package.json" ] && [ -n "${PORT}" ] \
    || { echo "build with --build-arg SERVICE=<a folder of services/> --build-arg PORT=<its DEFAULT_PORT>" >&2; exit 1; }
RUN grep -Eq "DEFAULT_PORT = ${PORT};" "services/${SERVICE}/src/config.ts" \
    || { echo "PORT=${PORT} is not the DEFAULT_PORT of services/${SERVICE}/src/config.ts" >&2; exit 1; }
RUN turbo prune @tessera/${SERVICE} --docker --out-dir /out

# --- build: install from the pruned lockfile, compile, deploy the prod bundle -
FROM tools AS build
ARG SERVICE
WORKDIR /repo
COPY --from=prune /out/json/ ./
RUN --mount=type=cache,id=tessera-pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm install --frozen-lockfile
COPY --from=prune /out/full/ ./
COPY tsconfig.base.json ./
RUN pnpm exec turbo run build --filter=@tessera/${SERVICE}...
# pnpm 10's deploy needs injected workspace packages or --legacy; --legacy keeps
# the workspace's symlinked packages for development.
RUN --mount=type=cache,id=tessera-pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm --filter=@tessera/${SERVICE} deploy --prod --legacy /prod

# --- runtime: node, tini, the bundle; non-root, read-only friendly ------------
FROM ${NODE_IMAGE} AS runtime
ARG PORT
RUN apt-get update \
    && apt-get install --yes --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
# The service needs node only: no package managers at run time (npm, npx, corepack,
# yarn), so nothing in the container can fetch and run code from a registry.
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-v*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT} \
    MIGRATE_ON_START=false \
    DATA_DIR=/tmp/tessera
WORKDIR /app
# Root-owned and read-only for the service user: package.json, dist/, drizzle/ (migrations
# are read from ./drizzle) and node_modules/, as `pnpm deploy` laid them out.
COPY --from=build /prod/ ./
# The node image's unprivileged "node" user, numeric so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
