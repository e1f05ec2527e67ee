/** The bank's timestamps (docs/bank-api.md#movement-fields): `YYYY-MM-DDThh:mm:ssZ` (UTC, whole seconds). */
export function wireDatetime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
