import type { Language } from '../../domain/chat-text.ts';
import { GroundingSources, markUnverified, untracedFigures } from '../../domain/grounding.ts';

/** What follows an answer whose figures stay untraced after the retry, in the answer's language. */
const UNVERIFIED_NOTE: Record<Language, string> = {
  en: 'Figures in ⟦ ⟧ could not be traced to your books; check them before relying on them.',
  zh: '⟦ ⟧ 中的数字无法在账本中核实，请核对后再使用。',
};

/** What the advisor does with an answer whose model round has ended without a tool call. */
export type Verdict = { retry: string } | { show: string };

/**
 * The advisor's answer of one turn, checked against the turn's tool results before it is shown
 * (server/domain/grounding.ts says when a figure is traced). Text streams to the person as it
 * comes until its first digit; from there on it is held until the model's round ends, then shown
 * when every figure is traced. An answer with an untraced figure is sent back to the model once
 * with the reason; the second answer is shown either way, its untraced figures marked ⟦ ⟧ and a
 * note after it. (What already streamed holds no digit, so no figure is shown unchecked.)
 */
export class GroundedAnswer {
  private readonly sources = new GroundingSources();
  private readonly language: Language;
  /** text already shown this turn (no digit in it) */
  private shown = '';
  /** text held back since the first digit */
  private held = '';
  /** the word under way before any digit came: shown once it ends */
  private word = '';
  private retried = false;

  constructor(language: Language, question: string, today: string) {
    this.language = language;
    this.sources.addText(question);
    this.sources.addDay(today);
  }

  addToolResult(result: unknown): void {
    this.sources.addResult(result);
  }

  /** The part of the model's text that can be shown now. */
  push(text: string): string {
    if (this.retried || this.held !== '') {
      this.held += text;
      return '';
    }
    const digit = text.search(/\d/);
    if (digit >= 0) {
      // the digit's word (a sign, a currency, a month name before a year) is held with it
      this.held = this.word + text;
      this.word = '';
      return '';
    }
    const ready = this.word + text;
    const lastSpace = Math.max(ready.lastIndexOf(' '), ready.lastIndexOf('\n'));
    this.word = ready.slice(lastSpace + 1);
    const out = ready.slice(0, lastSpace + 1);
    this.shown += out;
    return out;
  }

  /**
   * At the end of a model round without a tool call: what to show, or the reason to send back
   * to the model for its one retry (when a round is left for it).
   */
  settle(rest: string, canRetry: boolean): Verdict {
    this.push(rest);
    const pending = this.held + this.word;
    const attempt = this.retried ? pending : this.shown + pending;
    const untraced = untracedFigures(attempt, this.sources);
    if (untraced.length > 0 && !this.retried && canRetry) {
      this.retried = true;
      this.held = '';
      this.word = '';
      const figures = [...new Set(untraced.map((f) => f.text))].join(', ');
      return {
        retry: `These figures in your answer are not in the tool results of this conversation: ${figures}. Answer again using only figures exactly as the tools gave them (or their exact sums, differences or percentages), or call a tool to get the figure.`,
      };
    }
    this.held = '';
    this.word = '';
    if (!this.retried) {
      if (untraced.length === 0) return { show: pending };
      // no round left to retry in: shown marked
      return {
        show: markUnverified(attempt, untraced).slice(this.shown.length) + `\n\n${UNVERIFIED_NOTE[this.language]}`,
      };
    }
    const marked = markUnverified(attempt, untraced);
    const note = untraced.length > 0 ? `\n\n${UNVERIFIED_NOTE[this.language]}` : '';
    // the second answer continues what the first had shown, or starts afresh below it
    const body = attempt.startsWith(this.shown)
      ? marked.slice(this.shown.length)
      : `${this.shown === '' ? '' : '\n\n'}${marked}`;
    return { show: body + note };
  }

  /** What is held when the answer stops early (a failure): shown with its untraced figures marked. */
  abandon(): string {
    const pending = this.held + this.word;
    this.held = '';
    this.word = '';
    return markUnverified(pending, untracedFigures(pending, this.sources));
  }
}
