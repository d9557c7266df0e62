/** The time source use cases read `now` from: the system clock in production, a chosen one in tests. */
export type Clock = () => Date;
