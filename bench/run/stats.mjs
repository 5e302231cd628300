// Figures from repetitions: medians, spreads and paired ratios.
import { CONFIG } from "./config.mjs";

export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * A row's repetitions from its slices, in round order: repetition j is the
 * best of slices j, j + R, j + 2R, ... (R = CONFIG.repetitions) by the
 * figure `pick` reads (req/s unless told): the highest, or the lowest when
 * `lowerIsBetter` (latency). Another process on the machine only ever slows
 * a slice down, so the best slice is the nearest to what the server can do.
 */
export function repetitionsOf(slices, pick = (r) => r.rps, lowerIsBetter = false) {
  const R = CONFIG.repetitions;
  const best = (values) => {
    const finite = values.filter((v) => Number.isFinite(v));
    if (finite.length === 0) return Number.NaN;
    return lowerIsBetter ? Math.min(...finite) : Math.max(...finite);
  };
  return Array.from({ length: R }, (_, j) => best((slices ?? []).filter((_, i) => i % R === j).map(pick)));
}

/** A figure with its spread: the median of `reps`, their min and max, and the reps themselves. */
export function spreadOf(reps) {
  const finite = reps.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { value: Number.NaN, min: Number.NaN, max: Number.NaN, reps };
  return { value: median(finite), min: Math.min(...finite), max: Math.max(...finite), reps };
}

/**
 * Whether a row's ceiling holds on the slices so far: bare's repetitions
 * within CONFIG.unstableSpread of their median, and bare not below @x.
 */
export function ceilingHolds(bareSlices, xSlices, pick = (r) => r.rps, lowerIsBetter = false) {
  if (!bareSlices?.length || !xSlices?.length) return true;
  const bare = spreadOf(repetitionsOf(bareSlices, pick, lowerIsBetter));
  const x = spreadOf(repetitionsOf(xSlices, pick, lowerIsBetter));
  const steady = Math.max(1 - bare.min / bare.value, bare.max / bare.value - 1) <= CONFIG.unstableSpread;
  return steady && (lowerIsBetter ? bare.value <= x.value : bare.value >= x.value);
}

/** Paired ratios: repetition j of `a` over repetition j of `b`, with their spread. */
export function pairedRatio(a, b) {
  if (!a?.reps || !b?.reps) return spreadOf([a?.value / b?.value]);
  return spreadOf(a.reps.map((v, j) => v / b.reps[j]));
}
