/** Injection token of the logger for giro's lines (Nest's Logger with the context `giro`; specs give a silent one). */
export const MOVEMENT_LOGGER = Symbol('giro:MovementLogger');

/**
 * A log line about one movement: the originId as its own field (nestjs-pino and other structured loggers
 * merge an object message into the JSON line) and in the text (Nest's console logger prints the message).
 */
export function movementLogLine(originId: number, message: string): { originId: number; msg: string } {
  return { originId, msg: `originId ${originId}: ${message}` };
}

/** An error as a log line or `lastError` shows it: bank errors carry no secret (see bank.errors.ts), others are ours. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
