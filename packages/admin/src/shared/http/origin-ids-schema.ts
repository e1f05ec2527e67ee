/** The OpenAPI schema of a bulk request's `originIds`: 1 to `max` originIds, no repeats. */
export function originIdsSchema(max: number) {
  return {
    type: 'array',
    minItems: 1,
    maxItems: max,
    uniqueItems: true,
    items: { type: 'integer', minimum: 1 },
  } as const;
}
