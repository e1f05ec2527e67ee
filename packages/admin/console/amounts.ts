/**
 * An amount as typed by a person in Argentina (`1.234,50`, `1234,5`) or by a program (`1234.50`), as the admin
 * API reads amounts: a decimal string with a dot. Anything else is passed as typed, for the API to name the error.
 */
export function toApiDecimal(typed: string): string {
  const value = typed.trim().replace(/^\$\s*/, '');
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(value)) return value.replace(/\./g, '').replace(',', '.');
  if (/^\d+,\d{1,2}$/.test(value)) return value.replace(',', '.');
  return value;
}

/** An API amount (`1234.5`) as a person in Argentina types it (`1.234,5`); anything else as it is. */
export function typedAmount(apiDecimal: string): string {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(apiDecimal);
  if (!match) return apiDecimal;
  const whole = match[1].replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return match[2] === undefined ? whole : `${whole},${match[2]}`;
}
