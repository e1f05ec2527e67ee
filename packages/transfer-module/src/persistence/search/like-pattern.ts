/** Text for a `LIKE … ESCAPE '\'` pattern, its wildcards and the escape character taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
