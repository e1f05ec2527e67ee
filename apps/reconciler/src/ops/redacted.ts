/** What a secret's value is replaced with in a log line (its key stays, so a reader sees one was there). */
export const REDACTED = '[redacted]';
