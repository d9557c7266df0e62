import type { Logger } from '@tessera/service-kit';

/** A background task every replica runs on a timer (the session lifetimes job, the webhook worker). */
export interface PeriodicJob {
  /** Runs at once, then `intervalMs` after each run ends (`idleIntervalMs` after an idle one). */
  start(): void;
  /** Runs as soon as possible: at once when idle, right after the current run otherwise. */
  wake(): void;
  /** No further run; aborts the current run's signal and waits for it to end. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  name: string;
  intervalMs: number;
  logger: Logger;
  /**
   * One run. A run that answers `true` had more to do than it took: the next run
   * follows at once; one that answers `'idle'` found nothing that could become due
   * without a `wake`: the next run follows `idleIntervalMs` later (a safety net), unless
   * woken. A failure is logged and the job goes on (a database outage must not stop it
   * for good).
   */
  run: (signal: AbortSignal) => Promise<boolean | 'idle' | void>;
  /** After an `'idle'` run, the longest wait for the next; `intervalMs` when not given. */
  idleIntervalMs?: number;
}

/**
 * Runs `run` repeatedly, never twice at once in one replica; replicas coordinate
 * through the database (SKIP LOCKED, advisory locks), not here. Nothing is kept between runs: a
 * replica that stops loses no work.
 */
export function createPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let idle = false;
  let started = false;

  const schedule = (delayMs: number) => {
    if (aborter.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    // A pending run never keeps the process alive on its own.
    timer.unref();
  };

  function tick(): void {
    if (aborter.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    idle = false;
    running = options
      .run(aborter.signal)
      .then(
        (outcome) => {
          if (outcome === true) again = true;
          idle = outcome === 'idle';
        },
        (error: unknown) => {
          if (!aborter.signal.aborted)
            options.logger.warn({ err: error, job: options.name }, `${options.name}: run failed; trying again later`);
        },
      )
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : idle ? (options.idleIntervalMs ?? options.intervalMs) : options.intervalMs);
      });
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    wake() {
      if (!started || aborter.signal.aborted) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      aborter.abort(new Error(`${options.name} stopped`));
      clearTimeout(timer);
      await running;
    },
  };
}
