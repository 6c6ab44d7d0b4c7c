/** Language, disclaimer and secret masking of the advisor's text. */

export type Language = 'en' | 'zh';

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f]/;

/** A message with CJK characters is Chinese; anything else English. */
export function detectLanguage(text: string): Language {
  return CJK.test(text) ? 'zh' : 'en';
}

export const DISCLAIMER: Record<Language, string> = {
  en: 'The above analysis is for reference only.',
  zh: '以上分析仅供参考。',
};

/**
 * Long digit runs (card and account numbers: 12 or more digits, spaces or dashes allowed between
 * groups) keep only their last four digits.
 */
const LONG_DIGITS = /\d(?:[ -]?\d){11,}/g;

export function maskSecrets(text: string): string {
  return text.replace(LONG_DIGITS, (run) => {
    const digits = run.replace(/\D/g, '');
    return `••••${digits.slice(-4)}`;
  });
}

/**
 * Masks a stream chunk by chunk: a tail that might be the start of a long digit run is held back
 * until the next chunk (or the end) shows how it continues.
 */
export class StreamMasker {
  private pending = '';

  push(chunk: string): string {
    const text = this.pending + chunk;
    const tail = /\d(?:[ -]?\d)*[ -]?$/.exec(text);
    const cut = tail ? tail.index : text.length;
    this.pending = text.slice(cut);
    return maskSecrets(text.slice(0, cut));
  }

  flush(): string {
    const rest = maskSecrets(this.pending);
    this.pending = '';
    return rest;
  }
}
