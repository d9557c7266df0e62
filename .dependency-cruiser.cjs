// The layering of ARCHITECTURE.md's layer table, as import rules (issue 23, item 4).
// Paths are matched unanchored (`services/<name>/src/…`) so that the rule tests in
// tools/layering/test/fixtures exercise the very same rules. Each rule names the layer
// it protects; tools/layering/test/layering-rules.test.ts holds one rejected case per rule.
//
// Layers of a service, top to bottom (an arrow may only point down):
//   main.ts, server.ts, migrate.ts   the process and start
//   app.ts                           the composition root: wires everything below
//   routes/, bus/, jobs/             adapters: parse, call one use case, present
//   presenters/                      results → response bodies
//   use-cases/                       the only place that orchestrates
//   state/                           long-lived per-replica state behind narrow interfaces
//   db/, verification/, crypto/, network/, webhooks/, metrics/   mechanisms
//   domain/                          pure rules
//   config.ts                        the environment schema (read by main, server, app only)
//   @tessera/contracts, @tessera/service-kit
const SRC = 'services/([^/]+)/src/';
const same = (folders) => `services/$1/src/(${folders})`;

const ADAPTERS = 'routes/|bus/|jobs/';
const ENTRY = 'main\\.ts$|server\\.ts$|migrate\\.ts$|app\\.ts$';
// Libraries that do I/O or belong to a transport: never in a pure layer.
const IO_LIBRARIES =
  '^(node:)?(http|https|net|tls|dgram|dns|fs|fs/promises|child_process)$|node_modules/(fastify|@fastify/[^/]+|postgres|drizzle-orm|@electric-sql/pglite|@nats-io/[^/]+|undici)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle means two modules are one concept or one of them points up.',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'no-cross-service',
      severity: 'error',
      comment: 'A service never imports another service: shared shapes live in contracts, mechanics in the kit.',
      from: { path: SRC },
      to: { path: 'services/', pathNot: 'services/$1/' },
    },
    {
      name: 'no-cross-service-internals-in-tests',
      severity: 'error',
      comment: "A service's tests may start another service through its package entry, never reach into its src/.",
      from: { path: 'services/([^/]+)/test/' },
      to: { path: 'services/([^/]+)/src/', pathNot: 'services/$1/' },
    },
    {
      name: 'contracts-is-a-leaf',
      severity: 'error',
      comment: 'The contracts package depends on typebox alone.',
      from: { path: 'packages/contracts/src/' },
      to: { pathNot: 'packages/contracts/src/|node_modules/typebox/' },
    },
    {
      name: 'kit-below-services',
      severity: 'error',
      comment: 'The kit serves every service and knows none.',
      from: { path: 'packages/service-kit/src/' },
      to: { path: 'services/' },
    },
    {
      name: 'nothing-imports-the-entry',
      severity: 'error',
      comment: 'main, server, migrate and app sit on top: only the layer above them may import them.',
      from: { path: SRC, pathNot: `${SRC}(main\\.ts|server\\.ts|migrate\\.ts)$` },
      to: { path: same(ENTRY) },
    },
    {
      name: 'adapters-are-called-by-app-only',
      severity: 'error',
      comment: 'routes/, bus/ and jobs/ are wired by app.ts; nothing below reaches back up into a transport.',
      from: { path: SRC, pathNot: `${SRC}(app\\.ts|server\\.ts|routes/|bus/|jobs/)` },
      to: { path: same(ADAPTERS) },
    },
    {
      name: 'adapters-call-use-cases',
      severity: 'error',
      comment:
        'A route, responder or job parses, calls one use case and presents: it holds no state and does no work itself.',
      from: { path: `${SRC}(${ADAPTERS})` },
      to: { path: same('state/|crypto/|network/|webhooks/|verification/|config\\.ts$') },
    },
    {
      name: 'adapters-read-no-table',
      severity: 'error',
      comment: 'An adapter hands the database handle on to a use case (its type may be named) but runs no query.',
      from: { path: `${SRC}(${ADAPTERS})` },
      to: { path: same('db/'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'presenters-only-format',
      severity: 'error',
      comment: 'A presenter turns results into bodies; rows and use-case results reach it as types only.',
      from: { path: `${SRC}presenters/` },
      to: {
        path: same('db/|use-cases/|state/|network/|webhooks/|config\\.ts$'),
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'use-cases-below-adapters',
      severity: 'error',
      comment: 'Use cases are called by adapters; they never present, never read the config (values are injected).',
      from: { path: `${SRC}use-cases/` },
      to: { path: same('presenters/|config\\.ts$') },
    },
    {
      name: 'state-below-use-cases',
      severity: 'error',
      comment: 'Long-lived state serves use cases through narrow interfaces; it calls none.',
      from: { path: `${SRC}state/` },
      to: { path: same('use-cases/|presenters/|config\\.ts$') },
    },
    {
      name: 'mechanisms-below-use-cases',
      severity: 'error',
      comment:
        'db/, crypto/, network/, webhooks/ and metrics/ are mechanisms a use case, state object or app.ts calls.',
      from: { path: `${SRC}(db|crypto|network|webhooks|metrics)/` },
      to: { path: same('use-cases/|state/|presenters/|config\\.ts$') },
    },
    {
      name: 'pure-engines',
      severity: 'error',
      comment:
        'domain/ and verification/ are pure: no database, configuration, network, state or transport; fetching, tracing and the clock are injected.',
      from: { path: `${SRC}(domain|verification)/` },
      to: { path: same('use-cases/|presenters/|state/|db/|network/|webhooks/|metrics/|config\\.ts$') },
    },
    {
      name: 'pure-engines-no-io-libraries',
      severity: 'error',
      comment: 'domain/ and verification/ import no HTTP server, database driver, bus or file system.',
      from: { path: `${SRC}(domain|verification)/` },
      to: { path: IO_LIBRARIES },
    },
    {
      name: 'domain-is-the-bottom',
      severity: 'error',
      comment: 'domain/ holds the rules everything else uses; it imports only itself (and contracts, the kit).',
      from: { path: `${SRC}domain/` },
      to: { path: same('verification/|crypto/') },
    },
    {
      name: 'config-is-a-leaf',
      severity: 'error',
      comment: 'config.ts is the environment schema: it may name domain values, nothing that does work.',
      from: { path: `${SRC}config\\.ts$` },
      to: { path: `services/$1/src/`, pathNot: same('domain/|config\\.ts$') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|drizzle)/|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
