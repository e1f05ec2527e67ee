import { completeCbuCvu } from './cbu-cvu';
import { completeCuit } from './cuit';
import { explainSourceAccount, explainSourceAccounts, indexSourceAccounts } from './source-accounts';
import type { TransferParty } from './transfer-intent';

const CBU = completeCbuCvu('0170001', '0000000000012');
const CVU = completeCbuCvu('0000003', '1000000000017');
const OWNER = completeCuit('3071234567') as string;
const OTHER = completeCuit('2012345678') as string;

const party = (address: string, personId: string): TransferParty => ({
  addressType: 'CBU_CVU',
  address,
  owner: { personIdType: 'CUI', personId },
});

describe('source accounts', () => {
  const accounts = indexSourceAccounts([{ address: CBU, ownerPersonId: OWNER }]);

  it('accepts a transfer from one of them, by its holder', () => {
    expect(explainSourceAccount(party(CBU, OWNER), accounts)).toBeUndefined();
  });

  it('names from.owner.personId when another holder is given', () => {
    expect(explainSourceAccount(party(CBU, OTHER), accounts)).toMatchObject({
      field: 'from.owner.personId',
      rule: 'source_account_owner',
      message: `is not the holder of source account ${CBU}`,
    });
  });

  it('names from.address for another account, saying a client sub-account (CVU) is reserved to registered PSPs', () => {
    const cvu = explainSourceAccount(party(CVU, OWNER), accounts);
    expect(cvu).toMatchObject({ field: 'from.address', rule: 'source_account' });
    expect(cvu?.message).toMatch(/reserved to payment service providers registered with the central bank/);
    const cbu = explainSourceAccount(party(completeCbuCvu('0170001', '0000000000099'), OWNER), accounts);
    expect(cbu).toMatchObject({ field: 'from.address', message: expect.not.stringMatching(/payment service/) });
  });

  it.each<[unknown, RegExp]>([
    ['0000003', /must be a list/],
    [[{ address: '123', ownerPersonId: OWNER }], /^\[0\]\.address /],
    [[{ address: CBU, ownerPersonId: '20123456780' }], /^\[0\]\.ownerPersonId /],
    [[{ address: CBU }], /^\[0\]\.ownerPersonId must be a CUIT/],
    [
      [
        { address: CBU, ownerPersonId: OWNER },
        { address: CBU, ownerPersonId: OTHER },
      ],
      /^\[1\]\.address .* is listed twice/,
    ],
  ])('explains a bad list %j', (list, why) => {
    expect(explainSourceAccounts(list)).toMatch(why);
  });
});
