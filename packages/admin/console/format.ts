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

/**
 * The one way the console writes a day, in both languages: day first, `24/11/2026`. It is how Argentina's office
 * writes days, and how every day field is typed (days.ts), so what a table shows can be typed back into a filter;
 * Intl's own English order (`11/24/2026`) is never used. Intl gives the parts (Buenos Aires' clock, the language's
 * weekday); this puts them in order.
 */
function partsOf(format: Intl.DateTimeFormat, date: Date): (type: Intl.DateTimeFormatPartTypes) => string {
  const parts = format.formatToParts(date);
  return (type) => parts.find((found) => found.type === type)?.value ?? '';
}

const dayFirst = (part: (type: Intl.DateTimeFormatPartTypes) => string): string =>
  `${part('day')}/${part('month')}/${part('year')}`;

const timeFormats = new Map<Lang, Intl.DateTimeFormat>();

/** `24/11/2026 11:35:07` on Buenos Aires' clock, in both languages; an empty string for no time. */
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
  const part = partsOf(format, new Date(iso));
  return `${dayFirst(part)} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** A count in the language's digits grouping (`1.234`). */
export function formatCount(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALES[lang]).format(value);
}

/** `$ 4.000,50`, or `$ 4.000,50 + US$ 10,00` for totals in more than one currency. */
export function formatTotals(totals: readonly { amount: string; currencyId: string }[], lang: Lang): string {
  return totals.map((total) => formatMoney(total.amount, total.currencyId, lang)).join(' + ');
}

const dayFormats = new Map<Lang, Intl.DateTimeFormat>();

/** `lun 28/12/2026 09:00` (`Mon 28/12/2026 09:00`): a moment a transfer is sent, on Buenos Aires' clock. */
export function formatSendingMoment(iso: string, lang: Lang): string {
  let format = dayFormats.get(lang);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone: TIME_ZONE,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dayFormats.set(lang, format);
  }
  const part = partsOf(format, new Date(iso));
  return `${part('weekday')} ${dayFirst(part)} ${part('hour')}:${part('minute')}`;
}

/** The Buenos Aires day (`2026-12-28`) of a moment. */
export function buenosAiresDay(iso: string): string {
  return new Date(new Date(iso).getTime() - 3 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
