/**
 * The offset that moves a test clock to the start of the next rate-limit window of
 * `windowMs` (windows are aligned to multiples of their length since the epoch, the same
 * on every replica), so a test has a whole window before the counts restart. Give the
 * same offset to every app of the test.
 */
export function offsetToNextWindow(windowMs: number, currentOffsetMs = 0): number {
  const now = Date.now() + currentOffsetMs;
  return currentOffsetMs + (Math.floor(now / windowMs) + 1) * windowMs - now;
}
