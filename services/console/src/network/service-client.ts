import {
  failed,
  problemFromBody,
  succeeded,
  unreachable,
  type ServiceName,
  type ServiceResult,
} from '../domain/service-problem.js';

// The one way the console reaches a service: its public HTTP API with the signed-in
// user's access token, as any REST client would. Every refusal comes back as the
// service's own problem (code, sentence, details), never as an exception.

export type QueryValue = string | number | boolean | undefined;

export interface CallOptions {
  /** The user's access token (absent: a public route). */
  token?: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface TextAnswer {
  body: string;
  headers: Headers;
}

export interface BytesAnswer {
  body: Uint8Array;
  headers: Headers;
}

export interface ServiceClient {
  readonly service: ServiceName;
  readonly baseUrl: string;
  /** A management route answering `{ statusCode, message, data }`: the `data`. */
  data<T>(method: string, path: string, options?: CallOptions): Promise<ServiceResult<T>>;
  /** A route answering a body that is not the envelope (a JWT, a PEM): its text and headers. */
  text(method: string, path: string, options?: CallOptions): Promise<ServiceResult<TextAnswer>>;
  /** A route answering binary content (a CWT): its bytes and headers. */
  bytes(method: string, path: string, options?: CallOptions): Promise<ServiceResult<BytesAnswer>>;
  /** An open response for the caller to read as a stream (event streams); refusals as problems. */
  stream(path: string, options: CallOptions): Promise<ServiceResult<Response>>;
  /** Resolves when the service's liveness route answers (the console's readiness report). */
  alive(): Promise<void>;
}

export interface ServiceClientOptions {
  service: ServiceName;
  baseUrl: string;
  /** One call: connection, request and the whole response. Streams are bounded by their caller. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** `encodeURIComponent` for each path parameter, so an id can never change the path. */
export function pathOf(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce(
    (path, part, index) => path + part + (index < values.length ? encodeURIComponent(String(values[index])) : ''),
    '',
  );
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { service, baseUrl, timeoutMs } = options;
  const send = options.fetch ?? fetch;

  const request = async (
    method: string,
    path: string,
    call: CallOptions,
    signal: AbortSignal,
  ): Promise<ServiceResult<Response>> => {
    const url = new URL(path, `${baseUrl}/`);
    for (const [name, value] of Object.entries(call.query ?? {}))
      if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: call.accept ?? 'application/json', ...call.headers };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await send(url, {
        method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal,
        redirect: 'manual',
      });
      if (response.status >= 400) {
        const text = await response.text().catch(() => '');
        return failed(problemFromBody(service, response.status, parseJson(text)));
      }
      return succeeded(response);
    } catch (error) {
      return failed(unreachable(service, describeFailure(error)));
    }
  };

  const withTimeout = (call: CallOptions) =>
    call.signal ? AbortSignal.any([call.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);

  return {
    service,
    baseUrl,
    async data<T>(method: string, path: string, call: CallOptions = {}) {
      const signal = withTimeout(call);
      const answered = await request(method, path, call, signal);
      if (!answered.ok) return answered;
      try {
        const body = (await answered.value.json()) as { data?: T };
        return succeeded(body.data as T);
      } catch (error) {
        return failed(unreachable(service, describeFailure(error)));
      }
    },
    async text(method: string, path: string, call: CallOptions = {}) {
      const signal = withTimeout(call);
      const answered = await request(method, path, call, signal);
      if (!answered.ok) return answered;
      try {
        return succeeded({ body: await answered.value.text(), headers: answered.value.headers });
      } catch (error) {
        return failed(unreachable(service, describeFailure(error)));
      }
    },
    async bytes(method: string, path: string, call: CallOptions = {}) {
      const signal = withTimeout(call);
      const answered = await request(method, path, call, signal);
      if (!answered.ok) return answered;
      try {
        return succeeded({ body: new Uint8Array(await answered.value.arrayBuffer()), headers: answered.value.headers });
      } catch (error) {
        return failed(unreachable(service, describeFailure(error)));
      }
    },
    async stream(path: string, call: CallOptions) {
      // Only the answer's head is timed: the body streams as long as the caller's signal allows.
      const head = AbortSignal.timeout(timeoutMs);
      const controller = new AbortController();
      const abort = () => controller.abort();
      call.signal?.addEventListener('abort', abort, { once: true });
      head.addEventListener('abort', abort, { once: true });
      const answered = await request('GET', path, { accept: 'text/event-stream', ...call }, controller.signal);
      head.removeEventListener('abort', abort);
      return answered;
    },
    async alive() {
      const response = await send(new URL('/health', `${baseUrl}/`), { signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`${service} health answered ${response.status}`);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'no answer in time';
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  if (cause?.code) return cause.code;
  return error instanceof SyntaxError ? 'an answer that is not JSON' : 'connection failed';
}
