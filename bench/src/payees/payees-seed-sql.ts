// The SQL that fills the payee book for its search benchmark, one statement per engine: `count` accounts of
// 22 digits (bank prefixes spread over 40 banks), each with the CUIT asked for and the one the bank reported (the
// same for all but 1 in 200), a holder's name from 60 × 60 first names and surnames (name_key: its folded form, as
// giro writes it), a label on 1 in 10, and what was paid. Pure: the bench runs it.

export type PayeeSeedEngine = 'sqlite' | 'postgres';

export const FIRST_NAMES = [
  'ana',
  'beatriz',
  'carlos',
  'daniel',
  'elena',
  'fabian',
  'gabriela',
  'hector',
  'ines',
  'jorge',
  'karina',
  'lucas',
  'maria',
  'nicolas',
  'olga',
  'pablo',
  'quimey',
  'rosa',
  'sergio',
  'teresa',
  'ulises',
  'valeria',
  'walter',
  'ximena',
  'yanina',
  'zulma',
  'agustin',
  'belen',
  'cecilia',
  'diego',
  'emilia',
  'federico',
  'gonzalo',
  'hernan',
  'ignacio',
  'julieta',
  'leandro',
  'marcela',
  'natalia',
  'oscar',
  'patricia',
  'ramiro',
  'silvina',
  'tomas',
  'victoria',
  'alejandro',
  'bruno',
  'camila',
  'dario',
  'estela',
  'florencia',
  'gustavo',
  'hugo',
  'ivana',
  'javier',
  'laura',
  'martin',
  'noelia',
  'paula',
  'ricardo',
];
export const SURNAMES = [
  'gonzalez',
  'rodriguez',
  'gomez',
  'fernandez',
  'lopez',
  'diaz',
  'martinez',
  'perez',
  'garcia',
  'sanchez',
  'romero',
  'sosa',
  'torres',
  'alvarez',
  'ruiz',
  'ramirez',
  'flores',
  'acosta',
  'benitez',
  'medina',
  'herrera',
  'suarez',
  'aguirre',
  'gimenez',
  'gutierrez',
  'pereyra',
  'rojas',
  'molina',
  'castro',
  'ortiz',
  'silva',
  'nunez',
  'luna',
  'juarez',
  'cabrera',
  'rios',
  'ferreyra',
  'godoy',
  'morales',
  'dominguez',
  'moreno',
  'peralta',
  'vega',
  'carrizo',
  'quiroga',
  'castillo',
  'ledesma',
  'munoz',
  'ojeda',
  'ponce',
  'vera',
  'vazquez',
  'villalba',
  'cardozo',
  'navarro',
  'ramos',
  'arias',
  'coronel',
  'cordoba',
  'figueroa',
];

/** A list as rows `(k, word)`, numbered from 0 (spelled with UNION ALL: SQLite names no VALUES columns). */
function listRows(list: readonly string[]): string {
  return list.map((word, index) => `SELECT ${index} AS k, '${word}' AS word`).join(' UNION ALL ');
}

/** One statement that inserts `count` payees (`count` and `now` are numbers the bench chose). */
export function payeeSeedSql(engine: PayeeSeedEngine, count: number, now: number): string {
  const pad = (expression: string, width: number) =>
    engine === 'postgres' ? `lpad((${expression})::text, ${width}, '0')` : `printf('%0${width}d', ${expression})`;
  const address = `${pad('1 + (i % 40) * 7', 3)} || '0001' || ${pad('i', 15)}`;
  const requested = `'20' || ${pad('i % 100000000', 8)} || '0'`;
  const reported = `CASE WHEN i % 200 = 0 THEN '30' || ${pad('(i * 7) % 100000000', 8)} || '1' ELSE ${requested} END`;
  const name = `f.word || ' ' || s.word`;
  const label = `CASE WHEN i % 10 = 0 THEN 'proveedor ' || i END`;
  const numbers =
    engine === 'postgres'
      ? { with: '', from: `generate_series(1, ${count}) AS n(i)` }
      : { with: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) `, from: 'n' };
  return `${numbers.with}INSERT INTO "giro_payees" ("address", "requested_person_id", "holder_person_id",
      "holder_name", "name_key", "label", "label_key", "first_paid_at_ms", "last_paid_at_ms", "completed_count",
      "completed_cents", "created_at_ms", "updated_at_ms")
    SELECT ${address}, ${requested}, ${reported}, ${name}, ${name}, ${label}, ${label},
      ${now} - i * 1000, ${now} - (i % 1000) * 1000, 1 + i % 50, (1 + i % 50) * 2500000, ${now}, ${now}
    FROM ${numbers.from}
    JOIN (${listRows(FIRST_NAMES)}) f ON f.k = i % ${FIRST_NAMES.length}
    JOIN (${listRows(SURNAMES)}) s ON s.k = (i / ${FIRST_NAMES.length}) % ${SURNAMES.length}`;
}
