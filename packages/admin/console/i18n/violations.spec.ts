import { ApiError } from '../api/client';
import { fieldErrorText, violationText } from './violations';

const checkDigit = { field: 'to.address', rule: 'cbu_cvu', message: 'check digit of block 2 (position 22) is 7' };

describe('violationText', () => {
  it('says a known rule’s meaning in Spanish, then the API’s detail', () => {
    expect(violationText(checkDigit, 'es')).toBe(
      'No es un CBU/CVU válido: 22 dígitos con sus dos dígitos verificadores — check digit of block 2 (position 22) is 7',
    );
  });

  it('leaves out the detail of a rule whose meaning is all there is, and the meaning for English readers', () => {
    expect(violationText({ field: 'amount', rule: 'required', message: 'amount is required' }, 'es')).toBe(
      'Falta este dato.',
    );
    expect(violationText(checkDigit, 'en')).toBe(checkDigit.message);
  });
});

describe('fieldErrorText', () => {
  it('explains the first violation of the field asked for, and nothing for another field or error', () => {
    const error = new ApiError(400, 'Bad Request', undefined, 'VALIDATION_FAILED', [checkDigit], undefined, {});
    expect(fieldErrorText(error, 'to.address', 'en')).toBe(checkDigit.message);
    expect(fieldErrorText(error, 'from.address', 'en')).toBeUndefined();
    expect(fieldErrorText(new Error('network'), 'to.address', 'en')).toBeUndefined();
  });
});
