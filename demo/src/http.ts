/** A JSON call that must answer `expected`; otherwise it throws with what the service said. */
// The demo reads many answer shapes and names each at its call site; callers that do not are reading loosely on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function callJson<T = any>(
  method: string,
  url: string,
  options: { token?: string; apiKey?: string; body?: unknown; expected?: number[] } = {},
): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const expected = options.expected ?? [200, 201];
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Waits until `url` answers 200, so the demo can start right after `npm start`. */
export async function waitUntilUp(url: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s: is \`npm start\` running?`);
}
