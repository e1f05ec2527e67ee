import { VIOLATION_RULES } from '../../../transfer-module/src/domain/violation-rules';
import { ApiError } from '../api/client';
import { fieldErrorText, knowsRule, violationText } from './violations';

const checkDigit = {
  field: 'to.address',
  rule: 'cbu_cvu',
  params: { reason: 'check_digit', block: 2, position: 22, expected: 6, actual: 7 },
  message: 'check digit of block 2 (position 22) is 7, expected 6',
};

describe('violationText', () => {
  it('says a rule and its params in the reader’s language, never the API’s English message', () => {
    expect(violationText(checkDigit, 'es')).toBe(
      'No es un CBU/CVU válido: el dígito verificador del bloque 2 (posición 22) es 7 y debería ser 6.',
    );
    expect(violationText(checkDigit, 'en')).toBe(
      'Not a valid CBU/CVU: the check digit of block 2 (position 22) is 7, expected 6.',
    );
  });

  it('writes the amounts of a limit as money in the language', () => {
    const daily = {
      field: 'body.amount',
      rule: 'daily_amount',
      params: { address: '0', limit: '50000.00', remaining: '1234.5' },
      message: 'x',
    };
    expect(violationText(daily, 'es')).toBe(
      'Supera el importe diario de la cuenta de origen: quedan $\u00a01.234,50 de $\u00a050.000,00.',
    );
  });

  it('asks for a day day first, as its fields and a batch file take it, in both languages', () => {
    for (const rule of ['execute_on', 'day']) {
      const violation = { field: 'date', rule, message: 'must be a day written YYYY-MM-DD' };
      expect(violationText(violation, 'es')).toBe('No es un día: escribilo como dd/mm/aaaa.');
      expect(violationText(violation, 'en')).toBe('Not a day: write it as dd/mm/yyyy.');
    }
  });

  it('says a rule it does not know by what a violation means, not by the message', () => {
    expect(violationText({ field: 'x', rule: 'brand_new', message: 'english' }, 'es')).toBe('Dato no aceptado.');
  });

  it('knows every rule the API declares (docs/errors.md)', () => {
    expect(Object.keys(VIOLATION_RULES).filter((rule) => !knowsRule(rule))).toEqual([]);
  });
});

describe('fieldErrorText', () => {
  it('explains the first violation of the field asked for, and nothing for another field or error', () => {
    const error = new ApiError(400, 'Bad Request', undefined, 'VALIDATION_FAILED', [checkDigit], undefined, {});
    expect(fieldErrorText(error, 'to.address', 'en')).toBe(violationText(checkDigit, 'en'));
    expect(fieldErrorText(error, 'from.address', 'en')).toBeUndefined();
    expect(fieldErrorText(new Error('network'), 'to.address', 'en')).toBeUndefined();
  });
});
