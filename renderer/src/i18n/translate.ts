import { en, zh } from './catalogues.ts';
import type { Language, MessageKey, MessageValues, Messages } from './keys.ts';

type Catalogue = Readonly<Record<MessageKey, string>>;

/** A language's texts by dotted path, read once when the app loads. */
function byPath(texts: Messages): Catalogue {
  const flat: Record<string, string> = {};
  const pending: [string, object][] = [['', texts]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [prefix, group] = next;
    for (const [key, value] of Object.entries(group)) {
      if (typeof value === 'string') flat[prefix + key] = value;
      else pending.push([`${prefix}${key}.`, value as object]);
    }
  }
  return flat as Catalogue;
}

const CATALOGUES: Record<Language, Catalogue> = { en: byPath(en), zh: byPath(zh) };

/** The text of `key` in `language`, with each `{name}` replaced by `values[name]` (unknown names stay). */
export function translate(language: Language, key: MessageKey, values?: MessageValues): string {
  const template = CATALOGUES[language][key];
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Every dotted path of a language, for the tests that hold the languages to one another. */
export function messageKeys(language: Language): MessageKey[] {
  return Object.keys(CATALOGUES[language]) as MessageKey[];
}
