/** A value a violation's message is built from: a number, a text, a flag, or a list of allowed texts. */
export type ViolationParam = string | number | boolean | readonly string[];

/** The values a violation's message is built from, by name (`{ max: "1000000.00" }`): never prose. */
export type ViolationParams = Readonly<Record<string, ViolationParam>>;

/**
 * One reason a value was refused: which field, which rule, the values the refusal is built from, and why in
 * English. `field`, `rule` and `params` are enough for a client to say it in its own language (docs/errors.md
 * lists the rules and their params); `message` is for people reading logs and for callers without a dictionary.
 */
export interface Violation {
  /** Dotted path of the offending field in the input, e.g. `to.address` or `body.amount`; `''` is the input itself. */
  field: string;
  /** Short machine-readable rule name, e.g. `required`, `type`, `cbu_cvu`, `amount`. */
  rule: string;
  params: ViolationParams;
  message: string;
}

/** Why a value is refused, before it is tied to a field and a rule: the English message and its params. */
export interface Problem {
  message: string;
  params: ViolationParams;
}
