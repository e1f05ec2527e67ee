// The bank writes timestamps as `YYYY-MM-DDThh:mm:ssZ` (docs/bank-api.md#movement-fields). Accepted leniently:
// fractional seconds (cut to milliseconds) and a numeric offset (`-03:00`, converted to UTC), since both name one
// instant without doubt. Refused: no zone (local time of where?), impossible dates, leap seconds, other layouts.
const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** The instant a bank timestamp names, or undefined when it is not one we accept. */
export function parseBankTimestamp(value: string): Date | undefined {
  const match = TIMESTAMP_PATTERN.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const millis = Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const offsetMinutes = zoneOffsetMinutes(match[8]);
  if (offsetMinutes === undefined) return undefined;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000);
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
