import type { Lang } from './i18n/i18n';

/** Every time is shown as Buenos Aires' clock (UTC−3 all year), whatever the browser's zone. */
export const TIME_ZONE = 'America/Argentina/Buenos_Aires';

const LOCALES: Record<Lang, string> = { es: 'es-AR', en: 'en-US' };

/** The bank's currency codes (ISO 4217 numeric) as Intl knows them. */
const CURRENCIES: Record<string, string> = { '032': 'ARS', '840': 'USD' };

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * `$ 1.234,50` (es-AR, pesos). The amount stays a decimal string from the API to Intl, which formats strings
 * exactly: no float ever touches it.
 */
export function formatMoney(amount: string, currencyId: string, lang: Lang): string {
  const currency = CURRENCIES[currencyId];
  if (currency === undefined) return `${amount} (${currencyId})`;
  const key = `${lang}:${currency}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  return format.format(amount as `${number}`);
}

const timeFormats = new Map<Lang, Intl.DateTimeFormat>();

/** `24/11/2026, 11:35:07` on Buenos Aires' clock; an empty string for no time. */
export function formatTime(iso: string | null | undefined, lang: Lang): string {
  if (iso === null || iso === undefined) return '';
  let format = timeFormats.get(lang);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(lang, format);
  }
  return format.format(new Date(iso));
}

/** A count in the language's digits grouping (`1.234`). */
export function formatCount(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALES[lang]).format(value);
}
