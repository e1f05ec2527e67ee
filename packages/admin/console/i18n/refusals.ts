import type { Lang } from './i18n';

// The admin API names each refusal by its `code` (docs/errors.md) and adds the facts it is about (`originId`,
// `requiredRole`…). The console says it in the reader's language from those; the English `message` is for logs.
// A code the console does not know yet is said by what its HTTP status means.

type Facts = Record<string, unknown>;
type Said = { es: string; en: string };

const ROLE_NAMES: Record<string, Said> = {
  viewer: { es: 'lectura', en: 'viewer' },
  operator: { es: 'operador', en: 'operator' },
  approver: { es: 'aprobador', en: 'approver' },
  admin: { es: 'administrador', en: 'admin' },
};
const STATUS_NAMES: Record<string, Said> = {
  AWAITING_APPROVAL: { es: 'espera aprobación', en: 'awaiting approval' },
  PENDING: { es: 'pendiente', en: 'pending' },
  CREATED: { es: 'creada', en: 'created' },
  IN_PROGRESS: { es: 'en curso', en: 'in progress' },
  DELAYED: { es: 'demorada', en: 'delayed' },
  COMPLETED: { es: 'completada', en: 'completed' },
  FAILED: { es: 'fallida', en: 'failed' },
  REJECTED: { es: 'rechazada', en: 'rejected' },
  SCHEDULED: { es: 'programada', en: 'scheduled' },
  CANCELED: { es: 'anulada', en: 'canceled' },
};

/** A role's name in the language (the console's words for them). */
export const roleName = (role: unknown, lang: Lang): string => ROLE_NAMES[String(role)]?.[lang] ?? String(role);
const statusName = (status: unknown, lang: Lang): string => STATUS_NAMES[String(status)]?.[lang] ?? String(status);

const plain = (es: string, en: string) => (): Said => ({ es, en });

const CODES: Record<string, (facts: Facts, lang: Lang) => Said> = {
  VALIDATION_FAILED: plain(
    'Hay datos inválidos en el pedido; no se cambió nada.',
    'The request has invalid data; nothing changed.',
  ),
  UNAUTHORIZED: plain('La clave no es válida o fue revocada.', 'The key is not valid or was revoked.'),
  FORBIDDEN: (facts, lang) =>
    facts.requiredRole === undefined
      ? { es: 'Tu clave no tiene permiso para esto.', en: 'Your key may not do this.' }
      : {
          es: `Tu rol (${roleName(facts.role, lang)}) no permite esto: hace falta el rol ${roleName(facts.requiredRole, lang)}.`,
          en: `Your role (${roleName(facts.role, lang)}) may not do this: it needs the ${roleName(facts.requiredRole, lang)} role.`,
        },
  NOT_FOUND: plain('No existe lo pedido.', 'Nothing there.'),
  PAYLOAD_TOO_LARGE: plain('Lo enviado es demasiado grande.', 'What was sent is too large.'),
  UNSUPPORTED_MEDIA_TYPE: plain(
    'Tipo de archivo o de texto no aceptado.',
    'That kind of file or text is not accepted.',
  ),
  RATE_LIMITED: plain('Demasiados pedidos: esperá unos segundos.', 'Too many requests: wait a few seconds.'),
  REQUEST_REFUSED: plain('El pedido fue rechazado.', 'The request was refused.'),
  TRANSFER_NOT_FOUND: (f) => ({
    es: `No hay una transferencia con originId ${f.originId ?? ''}.`.replace(' .', '.'),
    en: `No transfer has originId ${f.originId ?? ''}.`.replace(' .', '.'),
  }),
  TRANSFER_CONFLICT: (f) => ({
    es: `El originId ${f.originId ?? ''} ya se usó con otros datos; no se creó nada.`,
    en: `originId ${f.originId ?? ''} was used already with other data; nothing was created.`,
  }),
  LIMIT_EXCEEDED: plain(
    'Supera un límite de la cuenta de origen; no se guardó nada.',
    'It passes a limit of the source account; nothing was stored.',
  ),
  MOVEMENT_BUSY: plain(
    'Otro proceso está trabajando con esta transferencia; probá de nuevo en unos segundos.',
    'Another process is handling this transfer; try again in a few seconds.',
  ),
  POLL_TOO_SOON: plain(
    'Todavía no se puede consultar al banco por esta transferencia.',
    'The bank may not be asked about this transfer yet.',
  ),
  UNSENT_TRANSFER: (f, lang) => ({
    es: `Esta transferencia nunca se envió al banco (está ${statusName(f.status, lang)}).`,
    en: `This transfer was never sent to the bank (it is ${statusName(f.status, lang)}).`,
  }),
  CANCELLATION_NOT_FOUND: plain(
    'Esta transferencia no tiene una cancelación para registrar.',
    'This transfer has no cancellation to register.',
  ),
  PSP_MODE_REQUIRED: plain('Solo se puede en modo PSP.', 'Only in PSP mode.'),
  SUB_ACCOUNT_NOT_FOUND: plain(
    'No hay una subcuenta registrada con esa dirección.',
    'No sub-account has that address.',
  ),
  SUB_ACCOUNT_CONFLICT: plain(
    'Esa subcuenta está registrada a otro titular.',
    'That sub-account belongs to another holder.',
  ),
  APPROVAL_NOT_AWAITED: (f, lang) => ({
    es: `Esta transferencia no espera aprobación (está ${statusName(f.status, lang)}).`,
    en: `This transfer is not awaiting approval (it is ${statusName(f.status, lang)}).`,
  }),
  APPROVAL_EXPIRED: plain(
    'El plazo para aprobar esta transferencia venció: queda rechazada, sin enviar.',
    'The time to approve this transfer ran out: it ends rejected, never sent.',
  ),
  SCHEDULE_REFUSED: plain(
    'No se puede programar para ese día o momento; no se guardó nada.',
    'It cannot be scheduled for that day or moment; nothing was stored.',
  ),
  TRANSFER_NOT_SCHEDULED: (f, lang) => ({
    es: `Solo se anula una transferencia programada; esta está ${statusName(f.status, lang)}.`,
    en: `Only a scheduled transfer can be canceled; this one is ${statusName(f.status, lang)}.`,
  }),
  PAYEE_BLOCKED: plain(
    'La cuenta de destino está bloqueada; no se guardó ni se envió nada.',
    'The destination account is blocked; nothing was stored or sent.',
  ),
  PAYEE_NOT_FOUND: plain('No hay un destinatario con esa cuenta.', 'No payee has that account.'),
  STATEMENT_NOT_FOUND: plain('No hay un extracto importado con ese id.', 'No imported statement has that id.'),
  SECRET_UNREADABLE: plain(
    'giro no puede leer un secreto guardado con otra clave de cifrado.',
    'giro cannot read a secret stored under another encryption key.',
  ),
  SELF_APPROVAL: plain(
    'No podés decidir sobre una transferencia creada con tu propia clave.',
    'You cannot decide on a transfer created with your own key.',
  ),
  APPROVAL_SAME_PERSON: plain(
    'Tu clave y la que creó esta transferencia son de la misma persona (una creó a la otra, o las creó la misma clave): tiene que aprobarla otra persona.',
    'Your key and the one that created this transfer count as one person (one minted the other, or one key minted both): someone else must approve it.',
  ),
  BOOTSTRAP_CANNOT_APPROVE: plain(
    'El token de administración crea claves pero no aprueba: aprobá con una clave de aprobador.',
    'The admin token mints keys but never approves: approve with an approver key.',
  ),
  ANOMALY_NOT_FOUND: plain('No hay una anomalía con ese número.', 'No anomaly has that number.'),
  ANOMALY_ALREADY_RESOLVED: plain('Esta anomalía ya estaba cerrada.', 'This anomaly was closed already.'),
  API_KEY_NAME_TAKEN: plain(
    'Ya hay una clave con ese nombre (activa o revocada).',
    'A key has that name already (active or revoked).',
  ),
  API_KEY_NOT_FOUND: plain('No hay una clave con ese nombre.', 'No key has that name.'),
  WEBHOOK_ENDPOINT_NOT_FOUND: plain(
    'No hay un destino de webhooks con ese número.',
    'No webhook endpoint has that id.',
  ),
  WEBHOOK_DELIVERY_NOT_FOUND: plain(
    'No hay una entrega de webhook con ese número.',
    'No webhook delivery has that id.',
  ),
  WEBHOOKS_DISABLED: plain('Los webhooks no están habilitados en esta instalación.', 'Webhooks are not enabled here.'),
  BANK_NOT_SENT: plain(
    'No se pudo hablar con el banco; no se envió nada.',
    'The bank could not be reached; nothing was sent.',
  ),
  BANK_REJECTED: plain('El banco rechazó el pedido.', 'The bank refused the request.'),
  BANK_CONFLICT: plain(
    'El banco rechazó el pedido como repetido o en conflicto.',
    'The bank refused it as repeated or conflicting.',
  ),
  BANK_OUTCOME_UNKNOWN: plain('El banco no respondió a tiempo.', 'The bank did not answer in time.'),
  BANK_MALFORMED_ANSWER: plain(
    'El banco respondió algo que no se pudo leer.',
    'The bank answered something unreadable.',
  ),
  BANK_AUTH_FAILED: plain('El banco rechazó las credenciales de giro.', "The bank refused giro's credentials."),
  BANK_RATE_LIMITED: plain(
    'El banco pide esperar antes de recibir más pedidos.',
    'The bank asks to wait before more requests.',
  ),
  BANK_MOVEMENT_NOT_FOUND: plain('El banco no conoce ese movimiento.', 'The bank does not know that movement.'),
  BANK_LOOKUP_FAILED: plain(
    'El banco no dio una respuesta utilizable; la transferencia sigue igual y se vuelve a consultar sola.',
    'The bank gave no usable answer; the transfer stays as it is and is asked about again.',
  ),
  SWEEP_UNAVAILABLE: plain('El barrido no está disponible por ahora.', 'The sweep is not available now.'),
  BATCH_INTERRUPTED: (f) => ({
    es: `El lote se interrumpió en la fila ${f.row ?? '?'}: las anteriores se hicieron; envialo de nuevo.`,
    en: `The batch stopped at row ${f.row ?? '?'}: the rows before it were done; send it again.`,
  }),
  DATABASE_UNAVAILABLE: plain(
    'La base de datos no está disponible por ahora; no se cambió nada.',
    'The database is unavailable for now; nothing changed.',
  ),
  SERVICE_UNAVAILABLE: plain(
    'Esta instalación no ofrece ese servicio.',
    'This installation does not offer that service.',
  ),
  INTERNAL: plain(
    'Falla inesperada del servidor; está en su registro.',
    'An unexpected server failure; it is in its log.',
  ),
};

/** The codes of refusals the console knew by class name before codes existed (a decision's item still names it). */
const CODE_OF_NAME: Record<string, string> = {
  MovementNotFoundError: 'TRANSFER_NOT_FOUND',
  ApprovalNotAwaitedError: 'APPROVAL_NOT_AWAITED',
  ApprovalExpiredError: 'APPROVAL_EXPIRED',
  SelfApprovalError: 'SELF_APPROVAL',
};

/** What an answer without a known code means, by its HTTP status. */
const STATUSES: Record<number, Said> = {
  400: { es: 'El pedido fue rechazado.', en: 'The request was refused.' },
  403: { es: 'Tu clave no tiene permiso para esto.', en: 'Your key may not do this.' },
  404: { es: 'No se encontró.', en: 'Not found.' },
  409: { es: 'No se puede en el estado actual.', en: 'Not possible in the current state.' },
  429: { es: 'Demasiados pedidos: esperá unos segundos.', en: 'Too many requests: wait a few seconds.' },
  502: { es: 'El banco no dio una respuesta utilizable.', en: 'The bank gave no usable answer.' },
  503: {
    es: 'El servicio no está disponible por ahora; no se cambió nada.',
    en: 'The service is unavailable for now; nothing changed.',
  },
};
const ANY: Said = { es: 'El servidor rechazó el pedido.', en: 'The server refused the request.' };

export interface Refusal {
  code?: string;
  /** The error's class name: a decision's item without a code. */
  errorName?: string;
  status?: number;
  /** The answer's body: the facts beside the code (`originId`, `requiredRole`…). */
  body?: unknown;
}

/** A refusal said in the reader's language from its code and facts (its HTTP status, when the code is unknown). */
export function refusalText(refusal: Refusal, lang: Lang): string {
  const code = refusal.code ?? (refusal.errorName && CODE_OF_NAME[refusal.errorName]);
  const facts = typeof refusal.body === 'object' && refusal.body !== null ? (refusal.body as Facts) : {};
  const said = code && CODES[code] ? CODES[code](facts, lang) : (STATUSES[refusal.status ?? 0] ?? ANY);
  return said[lang];
}

/** Whether the console says this code in its own words (a spec checks it knows every code the API declares). */
export const knowsCode = (code: string): boolean => code in CODES;

/** What an HTTP status means, for a row that keeps only its status (the audit trail's refusals). */
export const statusMeaning = (status: number, lang: Lang): string => (STATUSES[status] ?? ANY)[lang];
