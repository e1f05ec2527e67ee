import { ApiError } from '../api/client';
import type { Violation } from '../api/types';
import type { Lang } from './i18n';

// The admin API names each violation's rule and explains it in English (`message`, with the specifics: which check
// digit, which limit, what remains). In Spanish the console says what the rule means, then the API's detail; a
// rule it does not know is shown as the API says it. English readers get the API's message as it is.

/**
 * Rules whose message adds nothing to their meaning; or, for a day, would confuse it: the API reads `YYYY-MM-DD`,
 * which the console makes of what is typed day first.
 */
const COMPLETE = new Set(['required', 'time']);

const RULES_ES: Record<string, string> = {
  required: 'Falta este dato.',
  type: 'Tipo de dato inválido.',
  unknown_field: 'Campo desconocido.',
  length: 'Largo fuera de lo permitido.',
  characters: 'Tiene caracteres no permitidos.',
  cbu_cvu: 'No es un CBU/CVU válido: 22 dígitos con sus dos dígitos verificadores.',
  cuit: 'No es un CUIT/CUIL válido: 11 dígitos con su dígito verificador.',
  time: 'No es un día válido: escribilo como dd/mm/aaaa.',
  amount: 'Importe inválido: mayor que cero, con hasta dos decimales.',
  max: 'Importe mayor que el máximo aceptado.',
  currency: 'Moneda no aceptada.',
  concept: 'Concepto no aceptado.',
  origin_id: 'originId inválido.',
  unique: 'Repite un originId de una fila anterior.',
  source_account: 'No es una cuenta de origen configurada.',
  source_account_owner: 'Ese CUIT no es el titular de la cuenta de origen.',
  sub_account: 'No es una subcuenta de cliente registrada.',
  per_transfer: 'Supera el máximo por transferencia de la cuenta de origen.',
  daily_amount: 'Supera el importe diario de la cuenta de origen.',
  daily_count: 'Supera la cantidad diaria de transferencias de la cuenta de origen.',
  key_name: 'Nombre de clave inválido.',
  webhook_url: 'URL no aceptada: https, y no una dirección local ni privada.',
  event_types: 'Tipo de evento desconocido.',
  max_length: 'Demasiado largo.',
  role: 'Rol desconocido.',
};

/** A violation's explanation in the reader's language. */
export function violationText(violation: Violation, lang: Lang): string {
  const meaning = lang === 'es' ? RULES_ES[violation.rule] : undefined;
  if (meaning === undefined) return violation.message;
  return COMPLETE.has(violation.rule) ? meaning : `${meaning.replace(/\.$/, '')} — ${violation.message}`;
}

/** The explanation of what an API error says of `field` (its first violation), or undefined. */
export function fieldErrorText(error: unknown, field: string, lang: Lang): string | undefined {
  const violation = error instanceof ApiError ? error.violations.find((found) => found.field === field) : undefined;
  return violation && violationText(violation, lang);
}
