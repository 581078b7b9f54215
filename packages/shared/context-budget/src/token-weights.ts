// Weights for the features of text-features.ts, fitted against o200k on bench/corpus by bench/calibrate.ts.
// Regenerate with that script after changing the features or the corpus; do not edit by hand.
export const TOKEN_WEIGHTS: readonly number[] = [
  0.9295, 1.0097, 1.0097, 1.0097, 1.026, 1.026, 1.0969, 1.0969, 1.1319, 2.0534, 2.4576, 2.4576, 3.6487, 3.8033, 4.1734,
  4.3734, 4.5734, 4.7734, 4.9734, 5.1734, 0.25, 0.4159, 1.5426, 0.6929, 0.806, 0.806, 0.806, 1.3477, 2.3685, 0.1665,
  0.3349, 1.1711, 0.6876, 0.0084, 1.7644, 0.8, 0.9, 0, 1.5087, 1.5,
];
