import { TransferModuleOptionsError } from './transfer-module-options.error';

// The checks every option of the module goes through: each failure names the option and its rule.

export function checkObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(name, 'must be an object');
  return value as Record<string, unknown>;
}

export function checkBoolean(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(name, 'must be true or false');
  return value;
}

export function checkInteger(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(name, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** An integer option checked against its declaration (option-declarations.ts): its default and bounds. */
export function checkDeclaredInteger(
  value: unknown,
  name: string,
  declared: { default?: number; min?: number; max?: number },
  fallback = declared.default,
): number {
  if (fallback === undefined || declared.min === undefined || declared.max === undefined) {
    throw new Error(`the declaration of ${name} needs a default and both bounds`);
  }
  return checkInteger(value, name, fallback, declared.min, declared.max);
}

export function fail(name: string, rule: string): never {
  throw new TransferModuleOptionsError(`${name} ${rule}`);
}
