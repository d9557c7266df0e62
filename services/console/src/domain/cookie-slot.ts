/**
 * One cookie of the browser's, as a use case sees it: the value the request carried,
 * and the value the answer gives back (or its removal). The route behind it decides the
 * cookie's name, attributes and how a long value is split.
 */
export interface CookieSlot {
  read(): string | undefined;
  write(value: string, maxAgeSeconds: number): void;
  clear(): void;
}
