// A query string of the admin API or of the console's own address (router.ts).

export type Query = Record<string, string | number | undefined>;

/** `a=1&b=x` of the defined, non-empty values. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
