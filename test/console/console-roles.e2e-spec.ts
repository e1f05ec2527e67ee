import { CONSOLE_CONTENT_SECURITY_POLICY } from '@giro/admin/console-server/console.controller';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describeWithChromium, type TestBrowser } from '../support/chromium';
import { ADMIN_TOKEN, transferRequest } from '../support/reconciler-harness';
import { RECONCILER_HOOK_MS } from '../support/reconciler-process';
import { startWebhookReceiver } from '../support/webhook-receiver';
import {
  type ConsoleStack,
  goTo,
  screenshot,
  signIn,
  startStackAndBrowser,
  waitShown,
  watchPage,
} from './console-stack';

// The console in Chromium, by role: a viewer is offered no action (and the API refuses one anyway); an approver
// approves another key's transfer but is not offered their own (the API refuses it anyway); an admin makes keys
// and webhook endpoints, each secret shown once, and changes, tests, disables, rotates and deletes an endpoint
// whose test events a real receiver verifies; a description holding a script shows as text. Transfers above 5 000
// wait for an approval (APPROVAL_REQUIRED_ABOVE).

/** The names of the buttons on the page. */
const buttonNames = (page: Page) =>
  page.locator('button').evaluateAll((buttons) => buttons.map((button) => button.textContent?.trim() ?? ''));

describeWithChromium('the operator console by role (Chromium)', () => {
  let stack: ConsoleStack;
  let browser: TestBrowser;

  beforeAll(async () => {
    [stack, browser] = await startStackAndBrowser({ APPROVAL_REQUIRED_ABOVE: '5000', WEBHOOK_ALLOW_LOOPBACK: 'true' });
  }, RECONCILER_HOOK_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("answers with the console's own Content-Security-Policy, not the reconciler's helmet one", async () => {
    for (const path of ['/console', '/console/app.js', '/console/app.css']) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    }
    // Elsewhere helmet's policy stays, with the inline styles /docs needs.
    const docs = await fetch(`${stack.url}/docs`);
    expect(docs.headers.get('content-security-policy')).toContain("style-src 'self' https: 'unsafe-inline'");
  });

  it('offers a viewer no action, and the API refuses one anyway', async () => {
    const viewer = await stack.createKey('auditor', 'viewer');
    const created = await stack.api('POST', '/admin/transfers', { body: transferRequest({ originId: 4101 }) });
    expect(created.status).toBe(201);
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, viewer);
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toBe('auditor · lectura');
    // The dashboard's bank card: the reconciler's readiness check, which shakes hands with the sandbox bank.
    await waitShown(page.getByRole('heading', { name: 'Banco' }));
    await expect(page.locator('.health-ok').textContent()).resolves.toBe('Responde');
    await screenshot(page, 'viewer-dashboard');

    const nav = await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link').allTextContents();
    expect(nav).toEqual([
      'Resumen',
      'Transferencias',
      'Cancelaciones',
      'Anomalías',
      'Aprobaciones',
      'Destinatarios',
      'Cierre',
      'Webhooks',
      'Auditoría',
    ]);

    await goTo(page, 'transfers/4101');
    await waitShown(page.getByRole('heading', { name: /Transferencia 4101/ }));
    await waitShown(page.getByText('Historia de estados'));
    // Only the frame's own buttons: no refresh, raw, approve, acknowledge or resolve.
    expect(await buttonNames(page)).toEqual(['Ir al contenido', 'Salir']);
    await screenshot(page, 'viewer-transfer');

    await goTo(page, 'cancellations');
    await waitShown(page.getByRole('heading', { name: 'Cancelaciones para registrar' }));
    expect(await buttonNames(page)).toEqual(['Ir al contenido', 'Salir']);
    await goTo(page, 'webhooks');
    await waitShown(page.getByText('No hay destinos registrados.'));
    expect(await buttonNames(page)).toEqual(['Ir al contenido', 'Salir']);
    await goTo(page, 'new');
    await waitShown(page.getByText('Esta página es para el rol operador; tu clave tiene el rol lectura.'));
    expect(await page.locator('form').count()).toBe(0);

    // The page offers nothing, and the API would not do it either.
    const refused = await stack.api('POST', '/admin/transfers', {
      key: viewer,
      body: transferRequest({ originId: 4102 }),
    });
    expect(refused.status).toBe(403);
    expect((await stack.api('POST', '/admin/transfers/4101/refresh', { key: viewer })).status).toBe(403);
    expect((await stack.api('GET', '/admin/transfers/4102')).status).toBe(404);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("lets an approver approve another key's transfer, and not their own", async () => {
    const operator = await stack.createKey('ops', 'operator');
    // Another person's approver key: minted with an admin key of their own, not by the admin token that minted ops.
    const checker = await stack.createKey('checker', 'approver', await stack.createKey('checker-lead', 'admin'));
    // An admin key creates and approves: the one role that could approve its own transfer, were it allowed.
    const boss = await stack.createKey('boss', 'admin');
    const byOperator = await stack.api('POST', '/admin/transfers', {
      key: operator,
      body: transferRequest({ originId: 4201, amount: '8000.00', description: 'supplier invoice 77' }),
    });
    const byBoss = await stack.api('POST', '/admin/transfers', {
      key: boss,
      body: transferRequest({ originId: 4202, amount: '9000.00', description: 'bonus of the boss' }),
    });
    expect([byOperator.json.status, byBoss.json.status]).toEqual(['AWAITING_APPROVAL', 'AWAITING_APPROVAL']);

    const bossPage = await browser.context.newPage();
    await signIn(bossPage, stack.url, boss);
    await goTo(bossPage, 'approvals');
    const own = bossPage.getByRole('checkbox', { name: 'Elegir la transferencia 4202' });
    await waitShown(own);
    expect(await own.isDisabled()).toBe(true);
    await expect(bossPage.getByText('propia: otra persona debe decidir').isVisible()).resolves.toBe(true);
    expect(await bossPage.getByRole('checkbox', { name: 'Elegir la transferencia 4201' }).isEnabled()).toBe(true);
    // Nor does its row offer a decision; another's row does.
    expect(await bossPage.getByRole('button', { name: 'Aprobar la transferencia 4202' }).count()).toBe(0);
    expect(await bossPage.getByRole('button', { name: 'Aprobar la transferencia 4201' }).count()).toBe(1);
    await screenshot(bossPage, 'approvals-own-disabled');
    // The API refuses it anyway: the creator's key never decides (maker–checker).
    const selfApproval = await stack.api('POST', '/admin/transfers/4202/approve', { key: boss });
    expect(selfApproval.status).toBe(403);
    await bossPage.close();

    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, checker);
    await goTo(page, 'approvals');
    await page.getByRole('checkbox', { name: 'Elegir la transferencia 4201' }).check();
    await page.getByRole('button', { name: 'Aprobar 1 transferencia por $\u00a08.000,00' }).click();
    await waitShown(page.getByText('Aprobadas: 1.'));
    await page.getByRole('checkbox', { name: 'Elegir la transferencia 4201' }).waitFor({ state: 'detached' });
    await screenshot(page, 'approvals-approved');
    const approved = await stack.api('GET', '/admin/transfers/4201');
    expect(approved.json.status).not.toBe('AWAITING_APPROVAL');
    expect(approved.json.approval).toMatchObject({ decision: 'approved', decidedBy: { name: 'checker' } });
    expect((await stack.api('GET', '/admin/transfers/4202')).json.status).toBe('AWAITING_APPROVAL');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('shows the bootstrap admin token its approve buttons disabled, saying why, and lets it reject', async () => {
    const operator = await stack.createKey('night-ops', 'operator');
    for (const originId of [4401, 4402]) {
      const created = await stack.api('POST', '/admin/transfers', {
        key: operator,
        body: transferRequest({ originId, amount: '7000.00', description: `proveedor ${originId}` }),
      });
      expect(created.json.status).toBe('AWAITING_APPROVAL');
    }
    const why = 'El token de administración no puede aprobar; usá una clave de aprobador.';
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, ADMIN_TOKEN);
    await goTo(page, 'approvals');
    const approveRow = page.getByRole('button', { name: 'Aprobar la transferencia 4401' });
    await waitShown(approveRow);
    expect(await approveRow.isDisabled()).toBe(true);
    expect(await approveRow.getAttribute('title')).toBe(why);
    await expect(page.locator('#approve-barred').textContent()).resolves.toBe(why);
    // Ticked, it may be rejected, never approved.
    await page.getByRole('checkbox', { name: 'Elegir la transferencia 4401' }).check();
    expect(await page.getByRole('button', { name: /^Aprobar 1 transferencia/ }).isDisabled()).toBe(true);
    await page.locator('#reject-reason').fill('duplicada');
    expect(await page.getByRole('button', { name: /^Rechazar 1 transferencia/ }).isEnabled()).toBe(true);
    await screenshot(page, 'approvals-bootstrap-token');

    // The transfer's own page says the same, and takes the token's rejection.
    await goTo(page, 'transfers/4402');
    const approveOne = page.getByRole('button', { name: 'Aprobar esta transferencia' });
    await waitShown(approveOne);
    expect(await approveOne.isDisabled()).toBe(true);
    await expect(page.locator('#detail-approve-barred').textContent()).resolves.toBe(why);
    await page.locator('#detail-reject-reason').fill('no corresponde');
    await page.getByRole('button', { name: 'Rechazar esta transferencia' }).click();
    await waitShown(page.getByText('Rechazada: no se envía.'));
    expect((await stack.api('GET', '/admin/transfers/4402')).json.status).toBe('REJECTED');
    // What the page does not offer, the API refuses.
    const refused = await stack.api('POST', '/admin/transfers/4401/approve');
    expect([refused.status, refused.json.code]).toEqual([403, 'BOOTSTRAP_CANNOT_APPROVE']);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('lets an admin create a key, shown once, and revoke one only after confirming it', async () => {
    const admin = await stack.createKey('head-of-payouts-with-a-very-long-key-name-2026', 'admin');
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, admin);
    // The long name is cut in the header (its title holds it all), not wrapped into the navigation.
    const name = page.getByTestId('signed-in-as');
    await expect(name.getAttribute('title')).resolves.toBe(
      'head-of-payouts-with-a-very-long-key-name-2026 · administrador',
    );
    const cut = await name.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(true);

    await goTo(page, 'keys');
    await page.getByLabel('Nombre').fill('night-shift');
    await page.getByLabel('Rol').selectOption('operator');
    await page.getByRole('button', { name: 'Crear clave' }).click();
    const key = await page.getByLabel('La clave').inputValue();
    expect((await stack.api('GET', '/admin/me', { key })).json).toMatchObject({
      name: 'night-shift',
      role: 'operator',
    });
    await screenshot(page, 'admin-keys');

    const row = page.getByRole('row').filter({ hasText: 'night-shift' });
    await row.getByRole('button', { name: 'Revocar' }).click();
    const question = row.getByRole('group', { name: '¿Revocar la clave night-shift? Deja de servir en un segundo.' });
    await waitShown(question);
    await question.getByRole('button', { name: 'No' }).click();
    await waitShown(row.getByRole('button', { name: 'Revocar' }));
    expect((await stack.api('GET', '/admin/me', { key })).status).toBe(200);

    await row.getByRole('button', { name: 'Revocar' }).click();
    await row.getByRole('button', { name: 'Sí, revocar' }).click();
    await waitShown(row.getByText('revocada'));
    expect((await stack.api('GET', '/admin/me', { key })).status).toBe(401);
    expect(seen).toEqual({ dialogs: [], errors: [] });
    await page.close();
  });

  it('lets an admin register a webhook endpoint, its field errors in Spanish and its secret shown once', async () => {
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, await stack.createKey('integrations', 'admin'));
    await goTo(page, 'webhooks');
    const url = page.getByLabel('URL');
    await url.fill('http://hooks.example.com/giro');
    await page.getByRole('button', { name: 'Registrar destino' }).click();
    await waitShown(page.locator('#endpoint-url-error'));
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#endpoint-url-error').textContent()).toMatch(
      /^URL no aceptada: https, y no una dirección local ni privada\.$/,
    );
    expect((await stack.api('GET', '/admin/webhooks')).json).toEqual([]);

    await url.fill('https://hooks.example.com/giro');
    await page.getByLabel('Descripción').fill('conciliación');
    await page.getByLabel('transfer.failed').check();
    await page.getByLabel('transfer.completed').check();
    await page.getByRole('button', { name: 'Registrar destino' }).click();
    const secret = await page.getByLabel('Secreto de firma').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = page.getByRole('row').filter({ hasText: 'https://hooks.example.com/giro' });
    // The list is read again after the registration: wait for the row, not for the secret's box alone.
    await waitShown(row);
    expect(await row.locator('td').allTextContents()).toEqual([
      'https://hooks.example.com/giro',
      'conciliación',
      'transfer.completed, transfer.failed',
      'sí',
      'Abrir',
    ]);
    await screenshot(page, 'admin-webhook-endpoint');
    const [endpoint] = (await stack.api('GET', '/admin/webhooks')).json;
    expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/giro', description: 'conciliación' });
    expect(endpoint.eventTypes).toEqual(['transfer.completed', 'transfer.failed']);
    // The list never shows the secret again.
    expect(JSON.stringify(endpoint)).not.toContain(secret.slice('whsec_'.length));
    expect(seen).toEqual({ dialogs: [], errors: [] });
    await page.close();
  });

  it('lets an admin change, test, disable, rotate and delete an endpoint; a real receiver verifies each test event', async () => {
    const receiver = await startWebhookReceiver();
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    try {
      await signIn(page, stack.url, await stack.createKey('hooks-admin', 'admin'));
      await goTo(page, 'webhooks');
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByLabel('transfer.completed').check();
      await page.getByRole('button', { name: 'Registrar destino' }).click();
      const secret = await page.locator('#created-secret').inputValue();
      const { id } = (await stack.api('GET', '/admin/webhooks')).json.find(
        (endpoint: { url: string }) => endpoint.url === receiver.url,
      );
      await page.getByRole('row').filter({ hasText: receiver.url }).getByRole('button', { name: 'Abrir' }).click();
      await waitShown(page.getByRole('heading', { name: `Destino ${receiver.url}` }));

      // Changed in place: the form holds what the endpoint has.
      await page.getByRole('button', { name: 'Cambiar', exact: true }).click();
      expect(await page.locator(`#endpoint-${id}-url`).inputValue()).toBe(receiver.url);
      await page.locator(`#endpoint-${id}-description`).fill('conciliación diaria');
      const editForm = page.getByRole('article').filter({ hasText: 'Cambiar el destino' });
      await editForm.getByLabel('transfer.failed').check();
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await waitShown(page.getByText('Cambios guardados.'));
      const changed = (await stack.api('GET', `/admin/webhooks/${id}`)).json;
      expect(changed).toMatchObject({ description: 'conciliación diaria', url: receiver.url });
      expect(changed.eventTypes).toEqual(['transfer.completed', 'transfer.failed']);

      // A test event, delivered to the receiver, signed with the secret shown at registration.
      const delivered = (count: number) =>
        page
          .locator('tr[data-delivery-id]')
          .filter({ hasText: 'webhook.test' })
          .filter({ hasText: 'entregada' })
          .nth(count - 1);
      await page.getByRole('button', { name: 'Enviar un evento de prueba' }).click();
      await waitShown(page.getByText(/^Evento de prueba en cola \(entrega \d+\)/));
      await waitShown(delivered(1));
      // The endpoint hears transfer events too (the other tests' transfers complete meanwhile).
      const testEvents = () => receiver.requests.filter((request) => JSON.parse(request.body).type === 'webhook.test');
      expect(testEvents()).toHaveLength(1);
      const [first] = testEvents();
      expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
      });

      // Rotated after a second click: the new secret shown once, the previous one signing beside it for a while.
      await page.getByRole('button', { name: 'Rotar el secreto' }).click();
      await page.getByRole('button', { name: 'Sí, rotar' }).click();
      const rotated = await page.locator('#rotated-secret').inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await waitShown(page.getByText('sigue firmando junto al nuevo hasta'));
      await page.getByRole('button', { name: 'Enviar un evento de prueba' }).click();
      await waitShown(delivered(2));
      const second = testEvents()[1];
      for (const signing of [rotated, secret]) {
        expect(new Webhook(signing).verify(second.body, second.headers as Record<string, string>)).toMatchObject({
          type: 'webhook.test',
        });
      }
      await screenshot(page, 'admin-webhook-manage');

      await page.getByRole('button', { name: 'Deshabilitar' }).click();
      await waitShown(page.getByText(/^Destino deshabilitado/));
      // The card shows the endpoint as the list reads it again, a moment after the notice.
      const state = page.getByTestId('endpoint-state');
      await waitShown(state.filter({ hasText: /^no, deshabilitado desde/ }));
      expect(await state.textContent()).toMatch(/^no, deshabilitado desde .*\(disabled by an operator\)$/);
      expect((await stack.api('GET', `/admin/webhooks/${id}`)).json.enabled).toBe(false);
      await page.getByRole('button', { name: 'Habilitar' }).click();
      await waitShown(page.getByText(/^Destino habilitado/));
      expect((await stack.api('GET', `/admin/webhooks/${id}`)).json.enabled).toBe(true);

      await page.getByRole('button', { name: 'Eliminar' }).click();
      await page.getByRole('button', { name: 'Sí, eliminar' }).click();
      await page.getByRole('row').filter({ hasText: receiver.url }).waitFor({ state: 'detached' });
      expect((await stack.api('GET', `/admin/webhooks/${id}`)).status).toBe(404);
      expect(seen).toEqual({ dialogs: [], errors: [] });
    } finally {
      await page.close();
      await receiver.close();
    }
  });

  it('shows a description holding a script as text, and runs nothing', async () => {
    const description = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const created = await stack.api('POST', '/admin/transfers', {
      body: transferRequest({ originId: 4301, description }),
    });
    expect(created.status).toBe(201);
    const page = await browser.context.newPage();
    const seen = watchPage(page);
    await signIn(page, stack.url, await stack.createKey('reader', 'viewer'));

    await goTo(page, 'transfers?text=script');
    const cell = page.locator('tr[data-origin-id="4301"] td.description');
    await waitShown(cell);
    expect(await cell.textContent()).toBe(description);
    await goTo(page, 'transfers/4301');
    const shown = page.locator('dd.description');
    await waitShown(shown);
    expect(await shown.textContent()).toBe(description);
    expect(await shown.isVisible()).toBe(true);
    // Nothing of the description became an element, and no dialog opened.
    expect(await page.locator('main script, main img').count()).toBe(0);
    await screenshot(page, 'script-as-text');
    expect(seen.dialogs).toEqual([]);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});
