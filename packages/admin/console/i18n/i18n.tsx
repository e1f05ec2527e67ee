import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { EN } from './messages-en';
import { ES, type MessageKey } from './messages-es';
import { messageParts } from './placeholders';

export type Lang = 'es' | 'en';
export const LANGS: readonly Lang[] = ['es', 'en'];

const DICTIONARIES: Record<Lang, Record<MessageKey, string>> = { es: ES, en: EN };

/** The language chosen on this browser (localStorage: it is a preference, not a secret); Spanish by default. */
const STORAGE_KEY = 'giro.console.lang';

function storedLang(): Lang {
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'en' ? 'en' : 'es';
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The message in the language, its `{name}` placeholders replaced by `values`. */
export function translate(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return messageParts(DICTIONARIES[lang][key], values)
    .map((part) => ('value' in part ? part.value : part.text))
    .join('');
}

/**
 * The message in the language as page content, each value in it marked as not to be translated: what people typed
 * or the API made up (a key's name, a URL, an endpoint's random id) is in no language, whatever letters it holds.
 */
export function translateMarked(
  lang: Lang,
  key: MessageKey,
  values: Record<string, string | number>,
): ComponentChildren[] {
  return messageParts(DICTIONARIES[lang][key], values).map((part, index) =>
    'value' in part ? (
      <span key={index} translate={false}>
        {part.value}
      </span>
    ) : (
      part.text
    ),
  );
}

export interface I18n {
  lang: Lang;
  t: Translate;
  /** `t` as page content, its values marked as in no language. */
  tm(key: MessageKey, values: Record<string, string | number>): ComponentChildren[];
  setLang(lang: Lang): void;
}

const I18nContext = createContext<I18n>({
  lang: 'es',
  t: (key, values) => translate('es', key, values),
  tm: (key, values) => translateMarked('es', key, values),
  setLang: () => undefined,
});

export function I18nProvider({ children }: { children: ComponentChildren }) {
  const [lang, setLangState] = useState<Lang>(storedLang);
  useEffect(() => {
    document.documentElement.lang = lang === 'es' ? 'es-AR' : 'en';
  }, [lang]);
  const setLang = (next: Lang) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLangState(next);
  };
  const t: Translate = (key, values) => translate(lang, key, values);
  const tm: I18n['tm'] = (key, values) => translateMarked(lang, key, values);
  return <I18nContext.Provider value={{ lang, t, tm, setLang }}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);
