import { ERROR_CODES, errorCodeForStatus, isErrorCode } from './error-codes';
import { GiroError } from './giro-error';

class SampleRefusal extends GiroError {
  constructor(readonly originId: number) {
    super('TRANSFER_CONFLICT', `originId ${originId} is taken`);
  }

  override answerFields() {
    return { originId: this.originId };
  }
}

describe('GiroError', () => {
  it('carries its code, the status the code is answered with, its class name and its message', () => {
    const error = new SampleRefusal(7);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(GiroError);
    expect(error).toMatchObject({ code: 'TRANSFER_CONFLICT', httpStatusCode: 409, name: 'SampleRefusal' });
    expect(error.message).toBe('originId 7 is taken');
    expect(error.answerFields()).toEqual({ originId: 7 });
    expect(error.violations).toBeUndefined();
  });
});

describe('ERROR_CODES', () => {
  it('declares every code in UPPER_SNAKE, with an HTTP error status and a one-line doc', () => {
    for (const [code, { status, doc }] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(status >= 400 && status <= 599).toBe(true);
      expect(doc).toMatch(/^\S.*\.$/);
      expect(doc).not.toContain('\n');
    }
  });

  it('names a bare HTTP status by its code, an unknown one by its class', () => {
    expect(errorCodeForStatus(400)).toBe('VALIDATION_FAILED');
    expect(errorCodeForStatus(401)).toBe('UNAUTHORIZED');
    expect(errorCodeForStatus(404)).toBe('NOT_FOUND');
    expect(errorCodeForStatus(429)).toBe('RATE_LIMITED');
    expect(errorCodeForStatus(418)).toBe('REQUEST_REFUSED');
    expect(errorCodeForStatus(504)).toBe('INTERNAL');
    expect(isErrorCode('LIMIT_EXCEEDED')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
