/** Ranking metrics over graded relevance (grades 0–3). */
export type Grades = Readonly<Record<string, number>>;

/** nDCG@k with gains 2^grade − 1. */
export function ndcg(ranked: readonly string[], grades: Grades, k = 10): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (2 ** (grades[id] ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = Object.values(grades).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Share of the first k results that are relevant (grade ≥ 1). */
export function precision(ranked: readonly string[], grades: Grades, k = 5): number {
  return ranked.slice(0, k).filter((id) => (grades[id] ?? 0) > 0).length / k;
}

/** 1 / rank of the first relevant result (0 if none). */
export function reciprocalRank(ranked: readonly string[], grades: Grades): number {
  const i = ranked.findIndex((id) => (grades[id] ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/**
 * Share of the grade ≥ 2 documents that `returned` holds (order does not matter: what an agent
 * reads is the whole answer). NaN when no document has grade ≥ 2.
 */
export function gradeShare(returned: readonly string[], grades: Grades, minGrade = 2): number {
  const wanted = Object.keys(grades).filter((id) => grades[id]! >= minGrade);
  if (wanted.length === 0) return NaN;
  const got = new Set(returned);
  return wanted.filter((id) => got.has(id)).length / wanted.length;
}
