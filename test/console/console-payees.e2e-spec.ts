import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { TO_CBU, transferRequest } from '../support/reconciler-harness';
import { RECONCILER_HOOK_MS } from '../support/reconciler-process';
import { waitUntil } from '../support/wait-until';
import {
  type ConsoleStack,
  goTo,
  screenshot,
  signIn,
  startStackAndBrowser,
  waitShown,
  watchPage,
} from './console-stack';

// The payee book in the console, in Chromium, against a reconciler process run with NEW_PAYEE_REQUIRES_APPROVAL=true:
// a first payment flagged on the approvals list, the account then found on "Destinatarios" with the holder as the
// bank named them, labelled by an operator and blocked by an approver; the page in English too.

describeWithChromium('the payee book in the console (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;
  let operator: string;
  let approver: string;

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser({ NEW_PAYEE_REQUIRES_APPROVAL: 'true' });
    operator = await stack.createKey('ops', 'operator');
    // Another person's key: minted by an admin key of their own.
    approver = await stack.createKey('checker', 'approver', await stack.createKey('checker-lead', 'admin'));
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('flags a first payment, then shows, labels and blocks its payee', async () => {
    const created = await stack.api('POST', '/admin/transfers', {
      key: operator,
      body: transferRequest({ originId: 8101, amount: '10.00' }),
    });
    expect(created.json.status).toBe('AWAITING_APPROVAL');

    const checker = await browser.context.newPage();
    const seen = watchPage(checker);
    await signIn(checker, stack.url, approver);
    await goTo(checker, 'approvals');
    const row = checker.locator('tr[data-origin-id="8101"]');
    await waitShown(row.getByText('Primera transferencia a esta cuenta'));
    await screenshot(checker, 'payees-first-payment');

    expect((await stack.api('POST', '/admin/transfers/8101/approve', { key: approver })).status).toBe(200);
    await waitUntil(
      async () => (await stack.api('GET', '/admin/transfers/8101')).json.status === 'COMPLETED',
      30_000,
      async () => (await stack.api('GET', '/admin/transfers/8101')).json.status,
    );
    const { json: payee } = await stack.api('GET', `/admin/payees/${TO_CBU}`);
    expect(payee.holder.name).toEqual(expect.any(String));

    await goTo(checker, 'payees');
    await waitShown(checker.getByRole('heading', { name: 'Destinatarios' }));
    await checker.getByLabel('Buscar por cuenta, CUIT, nombre o etiqueta').fill(payee.holder.name.slice(0, 4));
    await checker.getByRole('button', { name: 'Buscar', exact: true }).click();
    const payeeRow = checker.locator(`tr[data-payee="${TO_CBU}"]`);
    await waitShown(payeeRow.getByText(payee.holder.name, { exact: false }));
    await waitShown(payeeRow.getByText('Aprobado'));
    await payeeRow.getByRole('button', { name: 'Bloquear' }).click();
    await waitShown(payeeRow.getByText('Bloqueado'));
    expect((await stack.api('GET', `/admin/payees/${TO_CBU}`)).json.blocked.by.name).toBe('checker');
    await screenshot(checker, 'payees-blocked');

    const ops = await browser.context.newPage();
    await signIn(ops, stack.url, operator);
    await goTo(ops, 'payees');
    const opsRow = ops.locator(`tr[data-payee="${TO_CBU}"]`);
    await waitShown(opsRow);
    expect(await opsRow.getByRole('button', { name: 'Bloquear' }).count()).toBe(0);
    expect(await opsRow.getByRole('button', { name: 'Desbloquear' }).count()).toBe(0);
    await opsRow.getByLabel(`Etiqueta de ${TO_CBU}`).fill('Alquiler oficina');
    await opsRow.getByRole('button', { name: 'Guardar etiqueta' }).click();
    await waitShown(ops.getByText('Guardado.'));
    expect((await stack.api('GET', `/admin/payees/${TO_CBU}`)).json.label).toBe('Alquiler oficina');

    await ops.getByLabel('Idioma').selectOption('en');
    await waitShown(ops.getByRole('heading', { name: 'Payees' }));
    await waitShown(ops.locator(`tr[data-payee="${TO_CBU}"]`).getByText('Blocked'));
    expect(seen.errors).toEqual([]);
  });
});
