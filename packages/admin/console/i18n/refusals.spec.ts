import { explainedRefusal, refusalText } from './refusals';

describe('refusalText', () => {
  it('says a named refusal in Spanish, then the API’s own detail', () => {
    const refusal = {
      errorName: 'ApprovalExpiredError',
      status: 409,
      message: 'approval of transfer 7 expired at 2026-11-24T03:00:00.000Z',
    };
    expect(refusalText(refusal, 'es')).toBe(
      'El plazo para aprobar esta transferencia venció — approval of transfer 7 expired at 2026-11-24T03:00:00.000Z',
    );
  });

  it('explains an answer without a name by its status (the database out is 503)', () => {
    expect(refusalText({ status: 503, message: 'the database is unavailable for now' }, 'es')).toBe(
      'El servicio no está disponible por ahora (por ejemplo, la base de datos); no se cambió nada — ' +
        'the database is unavailable for now',
    );
  });

  it('shows what it does not know, and every English reader, the API’s message as it is', () => {
    expect(refusalText({ errorName: 'SomethingNewError', status: 418, message: 'new' }, 'es')).toBe('new');
    expect(refusalText({ errorName: 'SelfApprovalError', status: 403, message: 'your own' }, 'en')).toBe('your own');
  });

  it('tells which refusals it explains: a known name or status, in Spanish', () => {
    expect(explainedRefusal({ errorName: 'SelfApprovalError', status: 403, message: 'your own' }, 'es')).toBe(
      'No podés decidir sobre una transferencia creada con tu propia clave — your own',
    );
    expect(explainedRefusal({ status: 503, message: 'down' }, 'es')).toBe(
      'El servicio no está disponible por ahora (por ejemplo, la base de datos); no se cambió nada — down',
    );
    expect(explainedRefusal({ errorName: 'SomethingNewError', status: 418, message: 'new' }, 'es')).toBeUndefined();
    expect(
      explainedRefusal({ errorName: 'SelfApprovalError', status: 403, message: 'your own' }, 'en'),
    ).toBeUndefined();
  });
});
