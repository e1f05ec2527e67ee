/**
 * A JSON member's name as the engines' JSON expressions spell it inside a literal: a fixed name of giro's own
 * (`kind`), checked so that nothing else can ever reach the statement's text.
 */
export function jsonMemberName(member: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(member)) throw new Error(`not a JSON member name: ${member}`);
  return member;
}
