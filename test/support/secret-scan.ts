// Looks for configured secrets in captured output (logs, error messages, API answers). A secret counts as
// found in any of the forms it could be written in: as is, base64, base64url or URL-encoded.

function forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  return [...new Set([value, bytes.toString('base64'), bytes.toString('base64url'), encodeURIComponent(value)])];
}

/** The names of the `secrets` that appear in `text`, in any form. */
export function findSecrets(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, value]) => forms(value).some((form) => text.includes(form)))
    .map(([name]) => name);
}
