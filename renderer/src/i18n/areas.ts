import type { Texts } from './keys.ts';

/** An area's texts in each language, the Chinese ones having exactly the English ones' groups and keys. */
export function area<English extends object>(en: English, zh: Texts<English>): { en: English; zh: Texts<English> } {
  return { en, zh };
}

type Language = 'en' | 'zh';

/** One language's texts of every area, by area. */
export function languageOf<T extends Record<string, Record<Language, object>>, L extends Language>(
  areas: T,
  language: L,
): { [A in keyof T]: T[A][L] } {
  return Object.fromEntries(Object.entries(areas).map(([name, texts]) => [name, texts[language]])) as {
    [A in keyof T]: T[A][L];
  };
}

/** One type holding every member of a union: the groups of all areas in one catalogue. */
type AllOf<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;

/** The groups two areas both name (none may: the joined catalogue would keep only one area's). */
type SharedGroups<T> = {
  [A in keyof T]: { [B in Exclude<keyof T, A>]: keyof T[A] & keyof T[B] }[Exclude<keyof T, A>];
}[keyof T];

/**
 * A language's catalogue: the groups of each of its areas side by side, so a screen's texts are
 * read by group and key alone. A group named in two areas is a compile error (`groupInTwoAreas`).
 */
export function joinAreas<T extends Record<string, object>>(
  areas: T & ([SharedGroups<T>] extends [never] ? unknown : { groupInTwoAreas: SharedGroups<T> }),
): AllOf<T[keyof T]> {
  return Object.assign({}, ...Object.values(areas)) as AllOf<T[keyof T]>;
}
