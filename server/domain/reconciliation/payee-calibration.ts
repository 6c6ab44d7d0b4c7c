/**
 * The payee model's calibration (see payee-model.ts, part 3): the raw scores of the latest
 * bookings' best accounts, binned, and the share right in each bin made non-decreasing.
 */

/** Pseudo-lines at the raw score in each calibration bin. */
const CALIBRATION_PRIOR = 4;
/** Ranked bookings in a raw score's bin for its calibrated confidence to count as measured. */
const CALIBRATION_SUPPORT = 20;
/** The latest bookings calibration is read from (a model built afresh ranks only these before learning them). */
export const CALIBRATION_WINDOW = 1000;
const CALIBRATION_BINS = 20;
export const CALIBRATED_ACCOUNTS = 3;
/** Raw scores are summed in millionths, as integers, so that a window's sums are exact whichever way they were reached. */
export const MICRO = 1_000_000;

/** One ranked account's record: which calibration, its raw score in millionths, whether it was the booked account. */
interface Record {
  readonly payee: boolean;
  readonly raw: number;
  readonly hit: boolean;
}

/** Twenty bins of raw scores and how often the account scored there was the one booked. */
export class Bins {
  readonly lines = new Int32Array(CALIBRATION_BINS);
  /** millionths */
  readonly raw = new Float64Array(CALIBRATION_BINS);
  readonly right = new Int32Array(CALIBRATION_BINS);
  private map: Float64Array | null = null;

  static bin(raw: number): number {
    return Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(raw * CALIBRATION_BINS)));
  }

  add(r: Record, by: 1 | -1): void {
    const b = Bins.bin(r.raw / MICRO);
    this.lines[b]! += by;
    this.raw[b]! += by * r.raw;
    if (r.hit) this.right[b]! += by;
    this.map = null;
  }

  /**
   * The calibrated confidence of a raw score (see the module comment): the fitted rates of the
   * bins read as points at each bin's mean raw score, joined by straight lines (from 0 at 0, flat
   * past the last), so that a higher raw score never shows a lower confidence.
   */
  of(raw: number): number {
    if (raw <= 0) return 0;
    const map = (this.map ??= this.fit());
    let x0 = 0;
    let y0 = 0;
    for (let b = 0; b < CALIBRATION_BINS; b++) {
      const x1 = this.mid(b);
      const y1 = map[b]!;
      if (raw <= x1) return Math.min(1, Math.max(0, y0 + ((y1 - y0) * (raw - x0)) / (x1 - x0)));
      x0 = x1;
      y0 = y1;
    }
    return Math.min(1, Math.max(0, y0));
  }

  /** Whether the raw score's bin holds at least `CALIBRATION_SUPPORT` records. */
  supports(raw: number): boolean {
    return this.lines[Bins.bin(raw)]! >= CALIBRATION_SUPPORT;
  }

  private mid(b: number): number {
    const n = this.lines[b]!;
    return n === 0 ? (b + 0.5) / CALIBRATION_BINS : this.raw[b]! / MICRO / n;
  }

  private rate(b: number): number {
    return (this.right[b]! + CALIBRATION_PRIOR * this.mid(b)) / (this.lines[b]! + CALIBRATION_PRIOR);
  }

  /** Each bin's rate made non-decreasing (pool-adjacent-violators, weighted by lines). */
  private fit(): Float64Array {
    const blocks: { value: number; weight: number; bins: number }[] = [];
    for (let b = 0; b < CALIBRATION_BINS; b++) {
      blocks.push({ value: this.rate(b), weight: this.lines[b]! + CALIBRATION_PRIOR, bins: 1 });
      while (blocks.length > 1 && blocks.at(-2)!.value > blocks.at(-1)!.value) {
        const last = blocks.pop()!;
        const prev = blocks.at(-1)!;
        const weight = prev.weight + last.weight;
        prev.value = (prev.value * prev.weight + last.value * last.weight) / weight;
        prev.weight = weight;
        prev.bins += last.bins;
      }
    }
    const out = new Float64Array(CALIBRATION_BINS);
    let b = 0;
    for (const block of blocks) for (let i = 0; i < block.bins; i++) out[b++] = block.value;
    return out;
  }
}

/** The records of the latest `CALIBRATION_WINDOW` bookings, binned per source. */
export class Calibration {
  readonly payee = new Bins();
  readonly text = new Bins();
  private readonly window: (readonly Record[])[] = [];
  private start = 0;

  remember(records: readonly Record[]): void {
    if (this.window.length - this.start === CALIBRATION_WINDOW) {
      for (const r of this.window[this.start]!) (r.payee ? this.payee : this.text).add(r, -1);
      this.window[this.start++] = [];
      if (this.start > CALIBRATION_WINDOW) (this.window.splice(0, this.start), (this.start = 0));
    }
    this.window.push(records);
    for (const r of records) (r.payee ? this.payee : this.text).add(r, 1);
  }
}
