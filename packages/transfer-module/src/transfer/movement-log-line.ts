/**
 * A log line about one movement: the originId as its own field (nestjs-pino and other structured loggers
 * merge an object message into the JSON line) and in the text (Nest's console logger prints the message).
 */
export function movementLogLine(originId: number, message: string): { originId: number; msg: string } {
  return { originId, msg: `originId ${originId}: ${message}` };
}
