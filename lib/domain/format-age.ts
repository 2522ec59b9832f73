/** How long ago, short: `12 s`, `4 min`, `3 h`, `2 days`; `0 s` for a time ahead of `now` (clocks differ). */
export function formatAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  const days = Math.floor(seconds / 86_400);
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** Seconds as a duration a person reads: `0 s`, `45 s`, `3 min`, `2 h`. */
export function formatSeconds(seconds: number): string {
  return formatAge(new Date(0).toISOString(), seconds * 1000);
}
