import type { Violation } from '@giro/transfer-module';

/** A currency sign and the spaces around it, before the number: `$ 1.234,50`, `$1234.50`. */
const CURRENCY_SIGN = /^\$[\s\u00a0]*/;
const PLAIN = /^\d+$/;
/** One separator, once, then one or two digits: it can only be the decimal separator. */
const ONE_DECIMAL_SEPARATOR = /^\d+[.,]\d{1,2}$/;
/** Thousands by dots, the decimals after a comma: `1.234,50`, `1.234.567`. */
const DOT_THOUSANDS = /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/;
/** Thousands by commas, the decimals after a dot: `1,234.50`, `1,234,567`. */
const COMMA_THOUSANDS = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/;
/** One separator, once, then three digits, nothing else: `1.500` is 1500 in Spanish and 1.5 in English. */
const AMBIGUOUS = /^\d{1,3}[.,]\d{3}$/;

/**
 * An amount cell as an office writes it, as the decimal with a point the transfer request takes. Read by these
 * rules, in order, after a leading `$` and spaces: digits alone; one `.` or `,` followed by one or two digits is
 * the decimal separator (`1234.5`, `1234,50`); groups of three after dots, with an optional `,` and decimals
 * (`1.234,50`); groups of three after commas, with an optional `.` and decimals (`1,234.50`). A single separator
 * followed by exactly three digits (`1.500`, `1,500`) could be either, and is refused with the rule
 * `ambiguous_amount` rather than guessed. Anything else is passed on as written, for the transfer's own amount
 * rule to name.
 */
export function readOfficeAmount(cell: string): { amount: string } | { violation: Violation } {
  const written = cell.trim();
  const number = written.replace(CURRENCY_SIGN, '');
  if (AMBIGUOUS.test(number)) {
    return {
      violation: {
        field: 'body.amount',
        rule: 'ambiguous_amount',
        params: { value: written },
        message: `"${written}" could be thousands or decimals: write it with its decimals (1.500,00 or 1500.00)`,
      },
    };
  }
  if (PLAIN.test(number)) return { amount: number };
  if (ONE_DECIMAL_SEPARATOR.test(number)) return { amount: number.replace(',', '.') };
  if (DOT_THOUSANDS.test(number)) return { amount: number.replace(/\./g, '').replace(',', '.') };
  if (COMMA_THOUSANDS.test(number)) return { amount: number.replace(/,/g, '') };
  return { amount: written };
}
