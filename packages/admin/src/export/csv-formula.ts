// A spreadsheet (Excel, LibreOffice, Google Sheets) opening a CSV runs a cell that starts with one of these as a
// formula: `=HYPERLINK(...)` in a transfer's description would become a link, or worse, in the accountant's sheet.
// OWASP's advice on CSV injection: prefix such a cell with a single quote, which the spreadsheet shows as text.
// The full-width twins (＝ ＋ － ＠) too: a spreadsheet in an East Asian locale, or one normalising text, reads
// them as the ASCII ones.
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** The cell as a spreadsheet shows it as text: prefixed with `'` when it would start a formula, else unchanged. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_TRIGGERS.has(cell.charAt(0)) ? `'${cell}` : cell;
}
