/** One reason a value was refused: which field, which rule, and why, in words a caller can act on. */
export interface Violation {
  /** Dotted path of the offending field in the input, e.g. `to.address` or `body.amount`; `''` is the input itself. */
  field: string;
  /** Short machine-readable rule name, e.g. `required`, `type`, `cbu_cvu`, `amount`. */
  rule: string;
  message: string;
}
