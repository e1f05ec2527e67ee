/**
 * Hands a fetched file to the browser as a download. The export is fetched with the key in its Authorization
 * header (a plain link could not carry it), then saved from memory under `name`.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; the object URL is freed a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
