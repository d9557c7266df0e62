import type { App } from '../create-app.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** An object is sent as JSON; a string or Buffer as is (name its type in `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult<Body = any> {
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: Body;
  headers: Record<string, unknown>;
  raw: string;
}

export type AppCaller = (method: HttpMethod, url: string, options?: CallOptions) => Promise<CallResult>;

/** Calls an app in process (`inject`): the one way the three services' tests call their app. */
export function appCaller(app: App): AppCaller {
  return async (method, url, options = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
      ...(options.body !== undefined ? { payload: options.body as string | Buffer | object } : {}),
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body, headers: response.headers, raw: response.body };
  };
}
