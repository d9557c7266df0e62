/** The time, injected so tests can move it. */
export type Clock = () => Date;
