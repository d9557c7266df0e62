/** The time source use cases read `now` from: the system clock in production, a shifted one in tests. */
export type Clock = () => Date;
