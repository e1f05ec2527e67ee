import { pemCertificates, type TlsMaterial } from '@giro/transfer-module/bank';

/** When the certificates giro presents and trusts stop being valid. */
export interface CertificateExpiries {
  /** The client certificate (BANK_CERT_FILE). */
  client: Date;
  /** The earliest end among the bank CA's certificates (BANK_CA_FILE); undefined with Node's trusted roots. */
  ca: Date | undefined;
}

export type CertificateName = keyof CertificateExpiries;

export function certificateExpiries(tls: TlsMaterial): CertificateExpiries {
  const client = pemCertificates(tls.cert)[0];
  const ca = tls.ca === undefined ? [] : pemCertificates(tls.ca);
  return {
    client: new Date(client.validTo),
    ca: ca.length === 0 ? undefined : new Date(Math.min(...ca.map((certificate) => Date.parse(certificate.validTo)))),
  };
}

export interface CertificateVerdict {
  /** `expired`: the bank refuses (or cannot be trusted) now; `expiring`: within the warning period. */
  state: 'valid' | 'expiring' | 'expired';
  /** One sentence per certificate that is expiring or expired, for an operator. */
  problems: string[];
}

const DAY_MS = 86_400_000;

/** How the certificates stand at `now`, warning `warningDays` before one expires. */
export function judgeCertificates(expiries: CertificateExpiries, now: Date, warningDays: number): CertificateVerdict {
  const problems: string[] = [];
  let state: CertificateVerdict['state'] = 'valid';
  for (const [name, expiry] of Object.entries(expiries) as [CertificateName, Date | undefined][]) {
    if (expiry === undefined) continue;
    const left = expiry.getTime() - now.getTime();
    if (left <= 0) {
      state = 'expired';
      problems.push(`the ${name} certificate expired at ${expiry.toISOString()}`);
    } else if (left <= warningDays * DAY_MS) {
      if (state === 'valid') state = 'expiring';
      problems.push(
        `the ${name} certificate expires at ${expiry.toISOString()}, in ${Math.ceil(left / DAY_MS)} day(s)`,
      );
    }
  }
  return { state, problems };
}
