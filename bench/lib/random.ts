/**
 * A small seeded generator (sfc32, seeded through a string hash): the same seed gives the same
 * books on every machine and Node version, which Math.random never promises.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    let h = 1779033703 ^ seed.length;
    const next = () => {
      h = Math.imul(h ^ (h >>> 16), 2246822507);
      h = Math.imul(h ^ (h >>> 13), 3266489909);
      return (h ^= h >>> 16) >>> 0;
    };
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 16; i++) this.float();
  }

  /** Uniform in [0, 1). */
  float(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Log-normal around `median` (a spread of 1 is about a factor e either way), as prices are. */
  logNormal(median: number, spread: number): number {
    const u = 1 - this.float();
    const v = this.float();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(spread * z);
  }
}

/** Picks by weight: `weights[i]` is how often item i comes up relative to the others. */
export class WeightedPick<T> {
  private readonly items: readonly T[];
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    this.items = entries.map(([item]) => item);
    let sum = 0;
    for (const [, weight] of entries) this.cumulative.push((sum += weight));
    this.total = sum;
  }

  pick(random: Random): T {
    const x = random.float() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}
