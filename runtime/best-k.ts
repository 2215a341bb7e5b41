/**
 * The k best (score, index) pairs of a scan that offers indexes in ascending order — text search's
 * top-k (runtime/search/top-k.ts) and the vector scan (runtime/vectors.ts). A binary heap whose root
 * is the worst pair kept, so a candidate is compared with one number; a tie keeps the pair already
 * there (the lower index), the order every ranking here breaks ties by.
 */
export interface ScoredIndex {
  index: number;
  score: number;
}

export class BestK {
  private readonly scores: Float64Array;
  private readonly indexes: Int32Array;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.indexes = new Int32Array(capacity);
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  /** The k-th best score once full (a later index needs more than this to enter). */
  get threshold(): number {
    return this.scores[0]!;
  }

  /** Offers an index higher than every index offered before; true when it was kept. */
  offer(index: number, score: number): boolean {
    if (!this.full) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, index, this.scores[parent]!, this.indexes[parent]!)) break;
        this.scores[i] = this.scores[parent]!;
        this.indexes[i] = this.indexes[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.indexes[i] = index;
      return true;
    }
    if (!(score > this.scores[0]!)) return false;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.worse(this.scores[right]!, this.indexes[right]!, this.scores[left]!, this.indexes[left]!) ? right : left;
      if (!this.worse(this.scores[child]!, this.indexes[child]!, score, index)) break;
      this.scores[i] = this.scores[child]!;
      this.indexes[i] = this.indexes[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.indexes[i] = index;
    return true;
  }

  /** The pairs kept, best first, ties by index. */
  sorted(): ScoredIndex[] {
    const out: ScoredIndex[] = [];
    for (let i = 0; i < this.size; i++) out.push({ index: this.indexes[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }

  /** Whether (a, an) ranks below (b, bn): lower score, or equal score and higher index. */
  private worse(a: number, an: number, b: number, bn: number): boolean {
    return a < b || (a === b && an > bn);
  }
}
