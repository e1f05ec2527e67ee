// Transfer concept codes set by the central bank (BCRA) and in use in Argentina.
// VAR varios, ALQ alquileres, CUO cuotas, EXP expensas, FAC facturas, PRE préstamos, SEG seguros,
// HON honorarios, HAB haberes.
export const CONCEPT_CODES = ['VAR', 'ALQ', 'CUO', 'EXP', 'FAC', 'PRE', 'SEG', 'HON', 'HAB'] as const;
export type ConceptCode = (typeof CONCEPT_CODES)[number];
export const DEFAULT_CONCEPT: ConceptCode = 'VAR';

export function isConceptCode(value: unknown): value is ConceptCode {
  return (CONCEPT_CODES as readonly unknown[]).includes(value);
}
