// The JavaScript twin of dcglab.statistics.significance for small paired samples (the chapter on
// comparing systems). tests/test_comparing_explorer.py locks each function to Python:
//   pairedStats    <-> mean, effect_size, paired_t_test (statistic)
//   studentTwoSided <-> the two-sided p-value of paired_t_test (scipy.special.stdtr)
//   exactRandomization <-> randomization_test with every sign pattern enumerated

// Mean, sample standard deviation, d_z = mean / sd and t = mean / (sd / sqrt(n)).
export function pairedStats(d) {
  const n = d.length;
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  if (d.every((x) => x === d[0])) return { mean, sd: 0, d_z: null, t: null };
  return { mean, sd, d_z: mean / sd, t: mean / (sd / Math.sqrt(n)) };
}

// P(|T| >= |t|) for Student's t with an integer number of degrees of freedom nu, from the
// finite series of Abramowitz & Stegun 26.7.3-4 in theta = atan(|t| / sqrt(nu)).
export function studentTwoSided(t, nu) {
  const theta = Math.atan(Math.abs(t) / Math.sqrt(nu));
  const c = Math.cos(theta), s = Math.sin(theta);
  let inside;  // P(|T| < |t|)
  if (nu % 2 === 1) {
    let term = c, sum = nu > 1 ? c : 0;
    for (let k = 3; k <= nu - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      sum += term;
    }
    inside = (2 / Math.PI) * (theta + s * sum);
  } else {
    let term = 1, sum = 1;
    for (let k = 2; k <= nu - 2; k += 2) {
      term *= ((k - 1) / k) * c * c;
      sum += term;
    }
    inside = s * sum;
  }
  return Math.min(1, Math.max(0, 1 - inside));
}

// Two-sided exact randomization p-value: the share of the 2^n sign patterns whose mean is
// at least as far from 0 as the observed one, less 1e-9 times the mean absolute difference
// (the tolerance of Python's randomization_test).
export function exactRandomization(d) {
  const n = d.length;
  const tol = 1e-9 * (d.reduce((a, b) => a + Math.abs(b), 0) / n);
  const observed = Math.abs(d.reduce((a, b) => a + b, 0) / n) - tol;
  let hits = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let sum = 0;
    for (let q = 0; q < n; q++) sum += (mask >> q) & 1 ? -d[q] : d[q];
    if (Math.abs(sum) / n >= observed) hits++;
  }
  return hits / 2 ** n;
}
