import type { ApiClient } from './client';

/** `GET /admin/transfer-options`: what a transfer may be sent with here. */
export interface SendingOptions {
  currencies: string[];
  concepts: string[];
  /** Null: any `from` is taken. */
  sourceAccounts: { address: string; ownerPersonId: string }[] | null;
  psp: boolean;
}

/** An account a transfer may be sent from, with its holder's CUIT and, for a client's sub-account, its name. */
export interface SendingAccount {
  address: string;
  ownerPersonId: string;
  ownerName?: string | null;
  subAccount: boolean;
}

interface SubAccount {
  address: string;
  ownerPersonId: string;
  ownerName: string | null;
  enabled: boolean;
}

/**
 * The options, and the accounts the form offers: the configured source accounts and, in PSP mode, the enabled client
 * sub-accounts; null accounts when any `from` is taken (the form then asks for it as text).
 */
export async function fetchSendingOptions(
  api: ApiClient,
): Promise<{ options: SendingOptions; accounts: SendingAccount[] | null }> {
  const options = await api.get<SendingOptions>('admin/transfer-options');
  if (options.sourceAccounts === null) return { options, accounts: null };
  const own = options.sourceAccounts.map((account) => ({ ...account, subAccount: false }));
  if (!options.psp) return { options, accounts: own };
  const subAccounts = await api.get<SubAccount[]>('admin/sub-accounts');
  return {
    options,
    accounts: [
      ...own,
      ...subAccounts.filter((account) => account.enabled).map((account) => ({ ...account, subAccount: true })),
    ],
  };
}
