import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { EN } from './messages-en';
import { ES, type MessageKey } from './messages-es';

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
  return DICTIONARIES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

export interface I18n {
  lang: Lang;
  t: Translate;
  setLang(lang: Lang): void;
}

const I18nContext = createContext<I18n>({
  lang: 'es',
  t: (key, values) => translate('es', key, values),
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
  return <I18nContext.Provider value={{ lang, t, setLang }}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);
