import { parseAmount, type TransferIntentRules, transferLimitsOf } from '@giro/transfer-module';
import type { ReconcilerEnvironment } from './environment';

/** Each list variable and the transfer rule it sets. */
const LIST_VARIABLES = [
  ['TRANSFER_CURRENCIES', 'currencies'],
  ['TRANSFER_CONCEPTS', 'concepts'],
] as const;

/**
 * The transfer rules the bank leaves open (TRANSFER_MAX_AMOUNT, TRANSFER_MAX_DESCRIPTION_LENGTH,
 * TRANSFER_CURRENCIES, TRANSFER_CONCEPTS), checked by the module's own rules; undefined when none is set (the
 * module's defaults). Problems are pushed to `problems`, naming the variable.
 */
export function transferRulesFromEnvironment(
  vars: ReconcilerEnvironment,
  problems: string[],
): TransferIntentRules | undefined {
  const rules: TransferIntentRules = {};
  let valid = true;
  const check = (variable: string, apply: () => void) => {
    try {
      apply();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // `transfer rule "currencies" item 2 must be …` / `amount rule "max" must be …`
      problems.push(`${variable} ${error.message.replace(/^\w+ rule "\w+" /, '')}`);
      valid = false;
    }
  };
  if (vars.TRANSFER_MAX_AMOUNT !== undefined) {
    const maxAmount = vars.TRANSFER_MAX_AMOUNT;
    check('TRANSFER_MAX_AMOUNT', () => parseAmount('1', { max: maxAmount }));
    rules.maxAmount = maxAmount;
  }
  if (vars.TRANSFER_MAX_DESCRIPTION_LENGTH !== undefined)
    rules.maxDescriptionLength = vars.TRANSFER_MAX_DESCRIPTION_LENGTH;
  for (const [variable, rule] of LIST_VARIABLES) {
    const codes = vars[variable];
    if (codes === undefined) continue;
    check(variable, () => transferLimitsOf({ [rule]: codes }));
    rules[rule] = codes;
  }
  return valid && Object.keys(rules).length > 0 ? rules : undefined;
}
