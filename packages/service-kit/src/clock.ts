/**
 * The time source use cases and long-lived state read `now` from: the system clock in
 * production (`systemClock`, wired once by the composition root), a fixed or shifted
 * one in tests. Nothing below `app.ts` reads the system time itself or falls back to it.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
