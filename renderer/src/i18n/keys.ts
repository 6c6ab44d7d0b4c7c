import type { en } from './catalogues.ts';

/** A language's texts: the groups and keys of the English ones, each a string. */
export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

/** The catalogue every language fills; a key missing (or extra) in a language is a compile error. */
export type Messages = Texts<typeof en>;

type PathsOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : PathsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The dotted path of a text: `'accounts.renameLabel'`, `'backup.reason.daily'`. */
export type MessageKey = PathsOf<Messages>;

export type Language = 'en' | 'zh';

/** Values put into a text's `{name}` marks. */
export type MessageValues = Record<string, string | number>;
