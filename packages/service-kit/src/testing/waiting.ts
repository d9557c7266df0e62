/**
 * Polls `check` until it resolves true; a check that throws counts as "not yet"
 * (a server still starting). Rejects after `timeoutMs`, naming `what`.
 */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 20000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not reached in ${timeoutMs} ms`);
}
