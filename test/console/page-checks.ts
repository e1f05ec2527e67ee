import type { Page } from 'playwright-core';

// What a browser test checks of any console page: that it speaks one language, and that its tables fit.

/**
 * Words that show a page is speaking English: function words and the console's own vocabulary in English, none of
 * them a Spanish word. Identifiers the console shows in both languages (originId, CBU, CUIT, CSV, Webhooks) are not
 * listed.
 */
const ENGLISH = new Set(
  (
    'the and with from of is are was were not this that these those must should expected got has have will ' +
    'transfer transfers amount status created pending failed completed rejected refused delivered dead bank key ' +
    'keys role check digit block position movement intent query resend refresh approve approved reject sent ' +
    'cancel cancellation registered none search loading sign out invalid required unknown allowed ' +
    'found exists already your may only page anomaly anomalies open closed reason description account ' +
    'source destination currency time day today yes create revoke send again endpoint delivery deliveries'
  ).split(' '),
);

/** Words that show a page is speaking Spanish: none of them an English word. */
const SPANISH = new Set(
  (
    'el la los las del que una para con por sin transferencia transferencias importe estado creada pendiente ' +
    'fallida completada rechazada banco clave claves rol cuenta cuentas registrar registrada aprobación aprobar ' +
    'rechazar página hoy sí falló más está están hay ya nada ningún ninguna tu tus se buscar filtros origen ' +
    'destino moneda concepto descripción motivo cancelación cancelaciones anomalía anomalías datos dígito ' +
    'verificador posición bloque debería entregada muerta consulta enviar salir idioma resumen lote horas'
  ).split(' '),
);

/**
 * Every text of the page a reader may meet (hidden ones too: a folded filter, a closed detail), with its words in
 * the other language than the page's. Text marked as another language (`lang`) or not to be translated
 * (`translate="no"`: what people typed, the bank's own words, identifiers) is left out, and so is code (`<code>`:
 * column names to type as they are); so are the values typed in fields. Labels for screen readers (`aria-label`) are read too.
 */
export async function foreignWords(page: Page, lang: 'es' | 'en'): Promise<string[]> {
  // A string: it runs in the page, whose globals the tests' type check does not know.
  const texts = (await page.evaluate(`(() => {
    const pageLang = document.documentElement.lang.slice(0, 2);
    const skipped = (element) =>
      element.closest('[translate="no"], code, script, style, textarea') !== null ||
      (element.closest('[lang]')?.getAttribute('lang') ?? '').slice(0, 2) !== pageLang;
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (text !== '' && !skipped(node.parentElement)) found.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label]')) {
      if (!skipped(element)) found.push(element.getAttribute('aria-label'));
    }
    return found;
  })()`)) as string[];
  const foreign = lang === 'es' ? ENGLISH : SPANISH;
  const offending: string[] = [];
  for (const text of texts) {
    const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
    const bad = words.filter((word) => foreign.has(word));
    if (bad.length > 0) offending.push(`${bad.join(', ')} in “${text}”`);
  }
  return offending;
}

/** The tables wider than the box they are in (each named by its header row), at the page's current width. */
export async function overflowingTables(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() =>
    [...document.querySelectorAll('table')]
      .filter((table) => {
        const box = table.closest('.table-wrap') ?? table.parentElement;
        return box.scrollWidth > box.clientWidth + 1 || box.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
      })
      .map((table) => (table.querySelector('thead')?.textContent ?? '?') + ' — ' + table.scrollWidth + ' px in ' +
        (table.closest('.table-wrap') ?? table.parentElement).clientWidth + ' px')
  )()`)) as string[];
}

/** Whether the header bar holds on one line (its items side by side, none wrapped under another). */
export async function headerOnOneLine(page: Page): Promise<boolean> {
  return (await page.evaluate(`(() => {
    const top = document.querySelector('header.top');
    if (top === null) return true;
    // A navigation that fits: none of its links hidden behind a sideways scroll.
    const nav = top.querySelector('nav');
    if (nav !== null && nav.scrollWidth > nav.clientWidth + 1) return false;
    const items = [...top.querySelectorAll('nav a, .who > *, .brand')];
    const first = items[0].getBoundingClientRect();
    return items.every((item) => {
      const box = item.getBoundingClientRect();
      return box.height === 0 || (box.top < first.bottom && box.bottom > first.top);
    });
  })()`)) as boolean;
}

/** Who is signed in, when the header shows it and cuts it (the whole name is then only on hover). */
export async function cutIdentity(page: Page): Promise<string | undefined> {
  return (await page.evaluate(`(() => {
    const who = document.querySelector('.who-name');
    if (who === null || who.getClientRects().length === 0) return undefined;
    return who.scrollWidth > who.clientWidth + 1 ? who.textContent : undefined;
  })()`)) as string | undefined;
}

/** The legends of framed groups drawn across their frame's top border (each named by its text). */
export async function legendsOnTheirFrame(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() =>
    [...document.querySelectorAll('fieldset > legend')]
      .filter((legend) => {
        const frame = legend.parentElement;
        const border = parseFloat(getComputedStyle(frame).borderTopWidth);
        if (border === 0 || legend.getClientRects().length === 0) return false;
        return legend.getBoundingClientRect().top < frame.getBoundingClientRect().top + border;
      })
      .map((legend) => legend.textContent)
  )()`)) as string[];
}

/** Account numbers (22 digits) drawn on more than one line. */
export async function brokenAccounts(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() =>
    [...document.querySelectorAll('.account')]
      .filter((element) => element.getClientRects().length > 1 || element.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(element).fontSize))
      .map((element) => element.textContent)
  )()`)) as string[];
}

/**
 * The days on the page (its text and its fields' values) not written day first, `dd/mm/yyyy`, as the console writes
 * days in both languages: a `n/n/yyyy` whose second number cannot be a month (`11/29/2026`).
 */
export async function monthFirstDays(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const texts = [document.body.innerText, ...[...document.querySelectorAll('input')].map((input) => input.value)];
    return texts.flatMap((text) => text.match(/\\b\\d{1,2}\\/\\d{1,2}\\/\\d{4}\\b/g) ?? [])
      .filter((day) => Number(day.split('/')[1]) > 12);
  })()`)) as string[];
}
