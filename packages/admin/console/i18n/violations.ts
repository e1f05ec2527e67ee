import { ApiError } from '../api/client';
import type { Violation } from '../api/types';
import { typedDay } from '../days';
import { formatMoney } from '../format';
import type { Lang } from './i18n';

// The admin API names each violation's rule and the params its English `message` is built from
// (docs/errors.md): the console says it in the reader's language from those alone. The message is for logs; a
// rule the console does not know yet is said by its meaning in general, never by the API's English.

type Params = NonNullable<Violation['params']>;
type Said = { es: string; en: string };
type RuleText = (params: Params, lang: Lang) => Said;

const text = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : String(value ?? ''));
const money = (value: unknown, lang: Lang): string =>
  /^\d+(\.\d+)?$/.test(String(value)) ? formatMoney(String(value), '032', lang) : text(value);

const DIGITS: RuleText = (p) => {
  switch (p.reason) {
    case 'length':
      return {
        es: `tiene ${text(p.actual)} dígitos y deben ser ${text(p.expected)}.`,
        en: `it has ${text(p.actual)} digits; it needs ${text(p.expected)}.`,
      };
    case 'characters':
      return {
        es: `solo lleva dígitos: en la posición ${text(p.position)} hay «${text(p.character)}».`,
        en: `digits only: position ${text(p.position)} holds “${text(p.character)}”.`,
      };
    case 'check_digit':
      return p.block === undefined
        ? {
            es: `el dígito verificador (posición ${text(p.position)}) es ${text(p.actual)} y debería ser ${text(p.expected)}.`,
            en: `the check digit (position ${text(p.position)}) is ${text(p.actual)}, expected ${text(p.expected)}.`,
          }
        : {
            es: `el dígito verificador del bloque ${text(p.block)} (posición ${text(p.position)}) es ${text(p.actual)} y debería ser ${text(p.expected)}.`,
            en: `the check digit of block ${text(p.block)} (position ${text(p.position)}) is ${text(p.actual)}, expected ${text(p.expected)}.`,
          };
    case 'check_digits':
      return { es: 'los dos dígitos verificadores están mal.', en: 'both check digits are wrong.' };
    case 'prefix':
      return {
        es: `empieza con ${text(p.prefix)}; se acepta ${text(p.allowed)}.`,
        en: `it starts with ${text(p.prefix)}; allowed: ${text(p.allowed)}.`,
      };
    case 'check_value':
      return { es: 'ningún dígito verificador sirve para ese número.', en: 'no check digit exists for that number.' };
    case 'cbu':
      return { es: 'es un CBU, no un CVU.', en: 'it is a CBU, not a CVU.' };
    default:
      return { es: '', en: '' };
  }
};

/** A meaning, then (when the params say more) the specifics. */
const detailed =
  (meaning: Said, detail: RuleText): RuleText =>
  (p, lang) => {
    const more = detail(p, lang);
    return {
      es: more.es ? `${meaning.es}: ${more.es}` : `${meaning.es}.`,
      en: more.en ? `${meaning.en}: ${more.en}` : `${meaning.en}.`,
    };
  };
const plain =
  (es: string, en: string): RuleText =>
  () => ({ es, en });

/** A day `YYYY-MM-DD` as people write it here, dd/mm/aaaa. */
const day = (value: unknown): string => typedDay(String(value ?? ''));

const RULES: Record<string, RuleText> = {
  required: plain('Falta este dato.', 'This is required.'),
  type: plain('Tipo de dato inválido.', 'Wrong kind of value.'),
  unknown_field: (p) => ({
    es: `Campo desconocido; se aceptan: ${text(p.allowed)}.`,
    en: `Unknown field; allowed: ${text(p.allowed)}.`,
  }),
  unknown: (p) => ({ es: `Campo no aceptado aquí (${text(p.allowed)}).`, en: `Not taken here (${text(p.allowed)}).` }),
  one_of: (p) => ({ es: `Indicá uno solo de: ${text(p.allowed)}.`, en: `Give exactly one of: ${text(p.allowed)}.` }),
  origin_id: plain('originId inválido: un número entero desde 1.', 'Not an originId: a whole number from 1.'),
  address_type: plain('El tipo de cuenta debe ser CBU_CVU.', 'The address type must be CBU_CVU.'),
  person_id_type: plain('El tipo de documento debe ser CUI.', 'The person id type must be CUI.'),
  cbu_cvu: detailed({ es: 'No es un CBU/CVU válido', en: 'Not a valid CBU/CVU' }, DIGITS),
  cvu: detailed({ es: 'Debe ser un CVU', en: 'It must be a CVU' }, DIGITS),
  cuit: detailed({ es: 'No es un CUIT/CUIL válido', en: 'Not a valid CUIT/CUIL' }, DIGITS),
  currency: (p) => ({
    es: `Moneda no aceptada; se acepta: ${text(p.allowed)}.`,
    en: `Currency not accepted; accepted: ${text(p.allowed)}.`,
  }),
  concept: (p) => ({
    es: `Concepto no aceptado; se acepta: ${text(p.allowed)}.`,
    en: `Concept not accepted; accepted: ${text(p.allowed)}.`,
  }),
  amount: (p) =>
    p.reason === 'decimals'
      ? { es: 'Importe inválido: hasta dos decimales.', en: 'Not an amount: at most two decimals.' }
      : p.reason === 'not_positive'
        ? { es: 'El importe debe ser mayor que cero.', en: 'The amount must be greater than zero.' }
        : {
            es: 'Importe inválido: mayor que cero, con hasta dos decimales (por ejemplo 1.234,50).',
            en: 'Not an amount: greater than zero, at most two decimals (for example 1,234.50).',
          },
  max: (p, lang) => ({
    es: `Supera el máximo por transferencia (${money(p.max, lang)}).`,
    en: `Above the maximum per transfer (${money(p.max, lang)}).`,
  }),
  length: (p) =>
    p.actual === undefined
      ? {
          es: `Debe tener de ${text(p.min)} a ${text(p.max)} caracteres.`,
          en: `${text(p.min)} to ${text(p.max)} characters.`,
        }
      : {
          es: `Demasiado largo: ${text(p.actual)} caracteres, el máximo es ${text(p.max)}.`,
          en: `Too long: ${text(p.actual)} characters, at most ${text(p.max)}.`,
        },
  range: (p) => ({
    es: `Debe ser un número entero de ${text(p.min)} a ${text(p.max)}.`,
    en: `A whole number from ${text(p.min)} to ${text(p.max)}.`,
  }),
  min: (p) => ({ es: `Debe ser al menos ${text(p.min)}.`, en: `At least ${text(p.min)}.` }),
  minLength: (p) => ({ es: `Al menos ${text(p.min)} caracteres.`, en: `At least ${text(p.min)} characters.` }),
  maxLength: (p) => ({ es: `Como mucho ${text(p.max)} caracteres.`, en: `At most ${text(p.max)} characters.` }),
  isInt: plain('Debe ser un número entero.', 'A whole number.'),
  isIn: (p) => ({ es: `Debe ser uno de: ${text(p.allowed)}.`, en: `One of: ${text(p.allowed)}.` }),
  isLength: (p) => ({
    es: `De ${text(p.min)} a ${text(p.max)} caracteres.`,
    en: `${text(p.min)} to ${text(p.max)} characters.`,
  }),
  status: plain('No es un estado.', 'Not a status.'),
  time: plain('No es un día válido: escribilo como dd/mm/aaaa.', 'Not a valid day: write it as dd/mm/yyyy.'),
  isIso8601: plain('No es una fecha y hora válida.', 'Not a valid date and time.'),
  matches: plain('Formato no aceptado.', 'Format not accepted.'),
  cursor: plain('La página pedida no es válida: volvé a la primera.', 'Not a valid page: go back to the first one.'),
  characters: (p) => ({
    es: `Tiene un carácter no permitido${p.position === undefined ? '' : ` en la posición ${text(p.position)}`} (de control o invisible).`,
    en: `It holds a character it may not${p.position === undefined ? '' : ` at position ${text(p.position)}`} (a control or invisible one).`,
  }),
  source_account: (p) =>
    p.cvu
      ? {
          es: 'Es un CVU: solo puede enviar en modo PSP, como subcuenta registrada.',
          en: 'It is a CVU: it may send only in PSP mode, as a registered sub-account.',
        }
      : p.subAccount
        ? { es: 'Esa subcuenta está deshabilitada.', en: 'That sub-account is disabled.' }
        : { es: 'No es una cuenta de origen configurada.', en: 'Not a configured source account.' },
  source_account_owner: plain(
    'Ese CUIT no es el titular de la cuenta de origen.',
    'That CUIT is not the holder of the source account.',
  ),
  sub_account: plain('No es una subcuenta de cliente registrada.', 'Not a registered client sub-account.'),
  per_transfer: (p, lang) => ({
    es: `Supera el máximo por transferencia de la cuenta de origen (${money(p.limit, lang)}).`,
    en: `Above the source account's maximum per transfer (${money(p.limit, lang)}).`,
  }),
  daily_amount: (p, lang) => ({
    es: `Supera el importe diario de la cuenta de origen: quedan ${money(p.remaining, lang)} de ${money(p.limit, lang)}.`,
    en: `Above the source account's daily amount: ${money(p.remaining, lang)} left of ${money(p.limit, lang)}.`,
  }),
  daily_count: (p) => ({
    es: `La cuenta de origen ya hizo sus ${text(p.limit)} transferencias de hoy.`,
    en: `The source account has made its ${text(p.limit)} transfers for today.`,
  }),
  unique: (p) =>
    p.row === undefined
      ? { es: 'Ese originId está repetido.', en: 'That originId is repeated.' }
      : {
          es: `El originId ${text(p.originId)} ya está en la fila ${text(p.row)}.`,
          en: `originId ${text(p.originId)} is in row ${text(p.row)} already.`,
        },
  batch: (p) => ({
    es: `Elegí de ${text(p.min)} a ${text(p.max)} transferencias.`,
    en: `Choose ${text(p.min)} to ${text(p.max)} transfers.`,
  }),
  reason: (p) => ({
    es: `El motivo debe tener de ${text(p.min)} a ${text(p.max)} caracteres.`,
    en: `The reason needs ${text(p.min)} to ${text(p.max)} characters.`,
  }),
  lookup_value: plain('El valor a buscar no es válido.', 'Not a value to look up.'),
  owner_name: (p) => ({
    es: `Nombre del titular inválido (hasta ${text(p.max)} caracteres).`,
    en: `Not a holder's name (at most ${text(p.max)} characters).`,
  }),
  key_name: (p) =>
    p.reason === 'reserved'
      ? { es: `El nombre «${text(p.name)}» está reservado.`, en: `The name “${text(p.name)}” is reserved.` }
      : p.reason === 'required'
        ? { es: 'Falta el nombre.', en: 'The name is required.' }
        : {
            es: `Nombre inválido: hasta ${text(p.max)} letras, números, punto, guion, guion bajo o apóstrofo, con un espacio entre palabras.`,
            en: `Not a key name: up to ${text(p.max)} letters, digits, dot, dash, underscore or apostrophe, one space between words.`,
          },
  role: plain('Rol desconocido.', 'Unknown role.'),
  webhook_url: plain(
    'URL no aceptada: https, y no una dirección local ni privada.',
    'URL not accepted: https, and not a local or private address.',
  ),
  webhook_secret: plain('Secreto no aceptado.', 'Secret not accepted.'),
  event_types: (p) => ({
    es: `Tipo de evento desconocido; se aceptan: ${text(p.allowed)}.`,
    en: `Unknown event type; allowed: ${text(p.allowed)}.`,
  }),
  max_length: (p) => ({
    es: `Demasiado largo: como mucho ${text(p.max)} caracteres.`,
    en: `Too long: at most ${text(p.max)} characters.`,
  }),
  enum: (p) => ({ es: `Debe ser uno de: ${text(p.allowed)}.`, en: `One of: ${text(p.allowed)}.` }),
  json: plain('El contenido no es JSON válido.', 'The body is not valid JSON.'),
  depth: plain('El contenido anida demasiado.', 'The body nests too deep.'),
  size: (p) => ({
    es: `Demasiado grande (máximo ${text(p.max)} bytes).`,
    en: `Too large (at most ${text(p.max)} bytes).`,
  }),
  body: plain('No se pudo leer el contenido entero.', 'The body could not be read in full.'),
  media_type: (p) => ({
    es: `Tipo de archivo no aceptado (${text(p.allowed)}).`,
    en: `File type not accepted (${text(p.allowed)}).`,
  }),
  encoding: plain(
    'El archivo tiene bytes que no son texto en UTF-8 ni en Windows-1252.',
    'The file has bytes that are neither UTF-8 nor Windows-1252 text.',
  ),
  array: plain('Se esperaba una lista de transferencias.', 'A list of transfers was expected.'),
  empty: plain('El archivo no tiene filas.', 'The file has no rows.'),
  rows: (p) => ({
    es: `El archivo tiene ${text(p.actual)} filas; el máximo es ${text(p.max)}.`,
    en: `The file has ${text(p.actual)} rows; at most ${text(p.max)}.`,
  }),
  cells: (p) => ({
    es: `La fila tiene ${text(p.actual)} celdas y el encabezado ${text(p.expected)}.`,
    en: `The row has ${text(p.actual)} cells; the header has ${text(p.expected)}.`,
  }),
  csv: plain('El archivo no es un CSV válido.', 'The file is not valid CSV.'),
  unknown_column: (p) => ({
    es: `Columnas desconocidas: ${text(p.columns)}.`,
    en: `Unknown columns: ${text(p.columns)}.`,
  }),
  duplicate_column: (p) => ({
    es: `Columnas repetidas: ${text(p.columns)}.`,
    en: `Repeated columns: ${text(p.columns)}.`,
  }),
  missing_column: (p) => ({ es: `Faltan columnas: ${text(p.columns)}.`, en: `Missing columns: ${text(p.columns)}.` }),
  statement_date: (p) => ({
    es: `La fecha de la línea ${text(p.row)} del extracto no es un día (aaaa-mm-dd o dd/mm/aaaa).`,
    en: `The date on statement line ${text(p.row)} is not a day (yyyy-mm-dd or dd/mm/yyyy).`,
  }),
  statement_amount: (p) => ({
    es: `El importe de la línea ${text(p.row)} del extracto no es un importe (negativo si es un débito).`,
    en: `The amount on statement line ${text(p.row)} is not an amount (negative for a debit).`,
  }),
  // Days are typed day first in the console's fields and in a batch file (the API turns them around).
  execute_on: plain('No es un día: escribilo como dd/mm/aaaa.', 'Not a day: write it as dd/mm/yyyy.'),
  day: plain('No es un día: escribilo como dd/mm/aaaa.', 'Not a day: write it as dd/mm/yyyy.'),
  execute_at: plain(
    'No es un momento: fecha y hora ISO 8601 con su zona (por ejemplo 2026-12-28T09:00:00-03:00).',
    'Not a moment: an ISO 8601 date and time with its offset (for example 2026-12-28T09:00:00-03:00).',
  ),
  exclusive: (p) => ({ es: `Indicá solo uno de: ${text(p.fields)}.`, en: `Give only one of: ${text(p.fields)}.` }),
  past: (p) => ({
    es: `El día ya pasó: tiene que ser hoy (${day(p.today)}) o después.`,
    en: `That day is past: it must be today (${day(p.today)}) or later.`,
  }),
  calendar: (p) => ({
    es: `Todavía no se conocen los feriados de ese año; se puede programar en: ${text(p.years)}.`,
    en: `That year's holidays are not known yet; transfers may be scheduled in: ${text(p.years)}.`,
  }),
  business_day: (p) => ({
    es: `No es un día hábil en Argentina; el próximo es el ${day(p.next)}.`,
    en: `Not a business day in Argentina; the next one is ${day(p.next)}.`,
  }),
  horizon: (p) => ({
    es: `Demasiado adelante: como mucho ${text(p.maxDays)} días.`,
    en: `Too far ahead: at most ${text(p.maxDays)} days.`,
  }),
  payee_blocked: plain(
    'La cuenta de destino está bloqueada en la agenda de destinatarios.',
    'The destination account is blocked in the payee book.',
  ),
  label: (p) => ({
    es: `La etiqueta está vacía o es demasiado larga (como mucho ${text(p.max)} caracteres).`,
    en: `The label is empty or too long (at most ${text(p.max)} characters).`,
  }),
  exact_number: plain(
    'El número no es exacto con dos decimales; escribilo como texto (por ejemplo "1000.00").',
    'The number is not exact to two decimals; write it as text (for example "1000.00").',
  ),
  duplicate_key: (p) => ({
    es: `El campo ${text(p.key)} aparece dos veces.`,
    en: `The field ${text(p.key)} is given twice.`,
  }),
};

const UNKNOWN_RULE: RuleText = plain('Dato no aceptado.', 'Value not accepted.');

/** A violation said in the reader's language from its rule and params (never its English `message`). */
export function violationText(violation: Violation, lang: Lang): string {
  return (RULES[violation.rule] ?? UNKNOWN_RULE)(violation.params ?? {}, lang)[lang];
}

/** Whether the console says this rule in its own words (a spec checks it knows every rule the API declares). */
export const knowsRule = (rule: string): boolean => rule in RULES;

/** The explanation of what an API error says of `field` (its first violation), or undefined. */
export function fieldErrorText(error: unknown, field: string, lang: Lang): string | undefined {
  const violation = error instanceof ApiError ? error.violations.find((found) => found.field === field) : undefined;
  return violation && violationText(violation, lang);
}
