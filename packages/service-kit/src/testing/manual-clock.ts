import type { Clock } from '../clock.js';

/** A clock a test moves by hand: `clock` is what the code under test is given. */
export interface ManualClock {
  readonly clock: Clock;
  /** The time it reads now. */
  now(): Date;
  /** Moves it forward (or back, with a negative amount) by `ms`. */
  advance(ms: number): void;
  set(at: Date): void;
}

/** A clock standing still at `start` (default: the real time when it is made) until moved. */
export function manualClock(start: Date = new Date()): ManualClock {
  let at = start.getTime();
  return {
    clock: () => new Date(at),
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
    set: (date) => {
      at = date.getTime();
    },
  };
}
