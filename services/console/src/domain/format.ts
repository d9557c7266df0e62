/** `2026-11-24 10:00:05 UTC`: one unambiguous form, whatever the reader's locale. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `3 days`, `5 hours`, `40 minutes`, `12 s`: a duration a person reads at a glance. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

/** A `datetime-local` field's value (`2026-11-24T10:00` or `…:05`), read as UTC: unix seconds, or undefined. */
export function unixSecondsOfUtcField(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026-02-30 over to March: a field naming no real time is refused, not moved.
  if (new Date(ms).getUTCDate() !== day || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  return Math.floor(ms / 1000);
}

/** The `datetime-local` value (UTC, to the second) of unix seconds. */
export function utcFieldOfUnixSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}
