/**
 * The "(Did you mean --json?)" hint after a mistyped option or command, as
 * commander gives it (its suggestSimilar, MIT): the candidates at the
 * smallest edit distance, under 3 edits and more than 40% alike.
 *
 * @module
 */

const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

/** `\n(Did you mean X?)`, `\n(Did you mean one of X, Y?)`, or `` when nothing is close. */
export function suggestSimilar(word: string, candidates: readonly string[]): string {
  const options = word.startsWith("--");
  const typed = options ? word.slice(2) : word;
  let similar: string[] = [];
  let best = MAX_DISTANCE;
  for (const whole of new Set(candidates)) {
    // An option is compared with options only, a command with commands.
    if (whole.startsWith("--") !== options) continue;
    const candidate = options ? whole.slice(2) : whole;
    if (candidate.length <= 1) continue;
    const distance = editDistance(typed, candidate);
    const length = Math.max(typed.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) {
      similar.push(candidate);
    }
  }
  const named = similar.sort().map((c) => options ? `--${c}` : c);
  if (named.length > 1) return `\n(Did you mean one of ${named.join(", ")}?)`;
  return named.length === 1 ? `\n(Did you mean ${named[0]}?)` : "";
}

/** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
