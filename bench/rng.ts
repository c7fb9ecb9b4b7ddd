// The benchmark's seeded PRNG (mulberry32): every random choice of the synthetic home comes from it, never
// from Math.random or the clock, so the same seed gives the same home.

/** mulberry32: tiny, fast, good enough for synthetic data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < 4; i++) this.next();
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform in [lo, hi]. */
  logUniform(lo: number, hi: number): number {
    return Math.round(lo * Math.exp(this.next() * Math.log(hi / lo)));
  }
  gaussian(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }
  uuid(): string {
    const variant = HEX[8 + Math.floor(this.next() * 4)];
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

const HEX = '0123456789abcdef';
