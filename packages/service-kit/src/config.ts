import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** A bad or missing environment variable; `problems` holds one line per variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A rule across variables, checked after each variable passed its own schema. */
export type ConfigRule<T> = (config: T) => string | undefined;

/**
 * Reads the schema's variables from `env`, converts strings to the declared types,
 * applies defaults and validates. Problems never quote a value: variables may be secrets.
 */
export function loadConfig<P extends TProperties>(
  schema: TObject<P>,
  env: Record<string, string | undefined> = process.env,
  rules: ConfigRule<Static<TObject<P>>>[] = [],
): Static<TObject<P>> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    // An empty variable reads as unset, so `FOO=` falls back to the default.
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(schema, Value.Default(schema, raw)) as Record<string, unknown>;
  const problems = new Map<string, string>();
  // Each variable is checked on its own, so every bad one gets its line.
  for (const [name, propertySchema] of Object.entries(schema.properties) as Array<[string, TSchema]>) {
    const value = converted[name];
    if (value === undefined) {
      if ((schema.required as string[] | undefined)?.includes(name))
        problems.set(name, `${name}: is required but not set`);
      continue;
    }
    const [error] = Value.Errors(propertySchema, value);
    if (error) problems.set(name, `${name}: ${describeProblem(propertySchema, error.message)}`);
  }
  // Rules run even when some variable is bad, so one start reports every problem; a
  // rule's line is dropped when a variable it names already has its own (or it throws
  // on a value that failed its schema).
  const config = converted as Static<TObject<P>>;
  for (const rule of rules) {
    let problem: string | undefined;
    try {
      problem = rule(config);
    } catch {
      continue;
    }
    if (problem && !variablesNamedBy(problem).some((name) => problems.has(name))) problems.set(problem, problem);
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()]);
  return converted as Static<TObject<P>>;
}

/** The variables a rule's line starts with: `A, B: …` names A and B. */
function variablesNamedBy(problem: string): string[] {
  const head = problem.split(':', 1)[0] ?? '';
  return head.split(',').map((name) => name.trim());
}

function describeProblem(schema: TSchema, message: string): string {
  const options = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf?.map((member) => member.const);
  if (options && options.every((option) => typeof option === 'string')) return `must be one of ${options.join(', ')}`;
  return message;
}

/** Runs `load`, and on a ConfigError prints one line per problem and exits with code 1. */
export function loadConfigOrExit<T>(load: () => T, serviceName: string): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${serviceName}: invalid configuration\n`);
      for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Variables every service reads (ARCHITECTURE.md, Configuration). */
export function commonConfigProperties(defaultPort: number) {
  return {
    NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
      default: 'production',
    }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort }),
    HOST: Type.String({ default: '0.0.0.0' }),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
      { default: 'info' },
    ),
    DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
    /** PEM CA bundle the PostgreSQL server's certificate must chain to: set, the connection is verified (host name too). */
    DATABASE_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
    DATA_DIR: Type.String({ default: './.data' }),
    MIGRATE_ON_START: Type.Optional(Type.Boolean()),
    DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
    DB_CONNECT_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 60, default: 3 }),
    SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 10000 }),
    MAX_BODY_BYTES: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 1024 * 1024 }),
    /**
     * Which proxies' X-Forwarded-For to believe for the client address (rate limits, logs):
     * `true`, a hop count, or comma-separated addresses/CIDRs. Unset: none (the peer is the client).
     */
    TRUST_PROXY: Type.Optional(
      Type.String({ pattern: '^(true|false|\\d+|[0-9a-fA-F.:/]+(\\s*,\\s*[0-9a-fA-F.:/]+)*)$' }),
    ),
  };
}

/** Migrations run at start in development unless told otherwise; elsewhere a Job runs them. */
export function shouldMigrateOnStart(config: { NODE_ENV: string; MIGRATE_ON_START?: boolean }): boolean {
  return config.MIGRATE_ON_START ?? config.NODE_ENV === 'development';
}

/** Fastify's `trustProxy` from TRUST_PROXY (see `commonConfigProperties`). */
export function parseTrustProxy(
  value: string | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    // A hop count: believe that many proxies in front of the service.
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((entry) => entry.trim());
}
