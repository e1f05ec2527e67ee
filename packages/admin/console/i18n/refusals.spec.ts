import { ERROR_CODES } from '../../../transfer-module/src/domain/error-codes';
import { knowsCode, refusalText } from './refusals';

describe('refusalText', () => {
  it('says a refusal from its code and facts, in either language, never from its English message', () => {
    const body = { code: 'TRANSFER_NOT_FOUND', originId: 9003, message: 'no movement with originId 9003' };
    expect(refusalText({ code: 'TRANSFER_NOT_FOUND', status: 404, body }, 'es')).toBe(
      'No hay una transferencia con originId 9003.',
    );
    expect(refusalText({ code: 'TRANSFER_NOT_FOUND', status: 404, body }, 'en')).toBe('No transfer has originId 9003.');
  });

  it('names the role a refusal by role needs', () => {
    const body = { code: 'FORBIDDEN', requiredRole: 'operator', role: 'viewer' };
    expect(refusalText({ code: 'FORBIDDEN', status: 403, body }, 'es')).toBe(
      'Tu rol (lectura) no permite esto: hace falta el rol operador.',
    );
  });

  it('says a decision item named by class alone, and an unknown code by its HTTP status', () => {
    expect(refusalText({ errorName: 'SelfApprovalError' }, 'es')).toBe(
      'No podés decidir sobre una transferencia creada con tu propia clave.',
    );
    expect(refusalText({ code: 'SOMETHING_NEW', status: 503 }, 'es')).toBe(
      'El servicio no está disponible por ahora; no se cambió nada.',
    );
    expect(refusalText({ code: 'SOMETHING_NEW', status: 418 }, 'en')).toBe('The server refused the request.');
  });

  it('knows every code the API declares (docs/errors.md)', () => {
    const unknown = Object.keys(ERROR_CODES).filter((code) => code !== 'INVALID_OPTIONS' && !knowsCode(code));
    expect(unknown).toEqual([]);
  });
});
