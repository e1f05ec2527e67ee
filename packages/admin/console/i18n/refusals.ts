import type { Lang } from './i18n';

// The admin API names each refusal (`errorName` in an error's body, `error.name` in a decision's item) and explains
// it in English (`message`, with the specifics: which status, when it expired). In Spanish the console says what the
// refusal means, then the API's detail; a refusal it does not know is shown as the API says it, after what its
// HTTP status means. English readers get the API's message as it is.

const REFUSALS_ES: Record<string, string> = {
  MovementNotFoundError: 'No hay una transferencia con ese originId.',
  TransferConflictError: 'Ese originId ya se usó con otros datos; no se creó nada.',
  MovementBusyError: 'Otro proceso está trabajando con esta transferencia; probá de nuevo en unos segundos.',
  PollTooSoonError: 'Todavía no se puede consultar al banco por esta transferencia.',
  ApprovalNotAwaitedError: 'Esta transferencia no espera aprobación (ya se decidió, o nunca la esperó).',
  ApprovalExpiredError: 'El plazo para aprobar esta transferencia venció.',
  SelfApprovalError: 'No podés decidir sobre una transferencia creada con tu propia clave.',
  ApprovalSamePersonError:
    'Tu clave y la que creó esta transferencia son de la misma persona (una creó a la otra, o las creó la misma clave): tiene que aprobarla otra persona.',
  BootstrapApprovalError: 'El token de administración crea claves pero no aprueba: aprobá con una clave de aprobador.',
  UnsentMovementError: 'Esta transferencia nunca se envió al banco.',
  CancellationNotFoundError: 'Esta transferencia no tiene una cancelación para registrar.',
  AnomalyNotFoundError: 'No hay una anomalía con ese número.',
  AnomalyAlreadyResolvedError: 'Esta anomalía ya estaba cerrada.',
  ApiKeyNameTakenError: 'Ya hay una clave con ese nombre (activa o revocada).',
  ApiKeyNotFoundError: 'No hay una clave con ese nombre.',
  PspModeRequiredError: 'Solo se puede en modo PSP.',
  SubAccountConflictError: 'Esa subcuenta ya está registrada.',
  SubAccountNotFoundError: 'No hay una subcuenta registrada con esa dirección.',
  WebhookEndpointNotFoundError: 'No hay un destino de webhooks con ese número.',
  WebhookDeliveryNotFoundError: 'No hay una entrega de webhook con ese número.',
  WebhooksDisabledError: 'Los webhooks no están habilitados en esta instalación.',
  SweepUnavailableError: 'El barrido no está disponible por ahora.',
  BankLookupFailedError: 'El banco no dio una respuesta utilizable.',
  BankMovementNotFoundError: 'El banco no conoce ese movimiento.',
  BankNotSentError: 'No se pudo hablar con el banco; no se envió nada.',
  BankOutcomeUnknownError: 'El banco no respondió a tiempo.',
  BankMalformedAnswerError: 'El banco respondió algo que no se pudo leer.',
  BankAuthError: 'El banco rechazó las credenciales de giro.',
  BankRateLimitedError: 'El banco pide esperar antes de recibir más pedidos.',
  BankRejectedError: 'El banco rechazó el pedido.',
  BankConflictError: 'El banco rechazó el pedido como repetido o en conflicto.',
};

/** What an answer without a named refusal means, by its HTTP status. */
const STATUSES_ES: Record<number, string> = {
  403: 'Tu clave no tiene permiso para esto.',
  404: 'No se encontró.',
  409: 'No se puede en el estado actual.',
  502: 'El banco no dio una respuesta utilizable.',
  503: 'El servicio no está disponible por ahora (por ejemplo, la base de datos); no se cambió nada.',
};

type Refusal = { errorName?: string; status?: number; message: string };

/** What the refusal means, in Spanish, when the console knows it by its name or its status. */
function meaningOf(refusal: Refusal, lang: Lang): string | undefined {
  if (lang !== 'es') return undefined;
  return (
    (refusal.errorName && REFUSALS_ES[refusal.errorName]) ||
    (refusal.status === undefined ? undefined : STATUSES_ES[refusal.status])
  );
}

/** The refusal explained in Spanish (its meaning, then the API's `message`), or undefined when the console cannot. */
export function explainedRefusal(refusal: Refusal, lang: Lang): string | undefined {
  const meaning = meaningOf(refusal, lang);
  if (meaning === undefined) return undefined;
  return refusal.message === '' ? meaning : `${meaning.replace(/\.$/, '')} — ${refusal.message}`;
}

/** A refusal's explanation in the reader's language: explained where the console can, else the API's `message`. */
export function refusalText(refusal: Refusal, lang: Lang): string {
  return explainedRefusal(refusal, lang) ?? refusal.message;
}
