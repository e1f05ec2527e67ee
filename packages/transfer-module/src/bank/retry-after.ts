// RFC 9110 §10.2.3: delay-seconds, or an HTTP-date, which senders must write as IMF-fixdate.
const DELAY_SECONDS = /^\d+$/;
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Milliseconds to wait according to a Retry-After header; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now: Date): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (DELAY_SECONDS.test(value)) return Number(value) * 1000;
  if (!IMF_FIXDATE.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
