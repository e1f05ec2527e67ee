/** CUIT prefixes of legal persons (companies); 20, 23, 24 and 27 are natural persons. */
const COMPANY_PREFIXES = ['30', '33', '34'];

const PEOPLE = ['María González', 'Juan Pérez', 'Lucía Fernández', 'Carlos Rodríguez', 'Sofía López', 'Diego Martínez'];
const COMPANIES = ['Comercial Andina SA', 'Logística del Plata SRL', 'Servicios Pampeanos SA', 'Agro Litoral SA'];

export const isCompany = (cuit: string): boolean => COMPANY_PREFIXES.includes(cuit.slice(0, 2));

/** A made-up but stable holder name for a CUIT/CUIL, so answers look like a real bank's. */
export function personNameOf(cuit: string): string {
  const names = isCompany(cuit) ? COMPANIES : PEOPLE;
  let hash = 0;
  for (const digit of cuit) hash = (hash * 31 + digit.charCodeAt(0)) >>> 0;
  return names[hash % names.length];
}
