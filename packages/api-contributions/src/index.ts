// @aalis/api-contributions: Contract of the contributions service: keyed contributions to named points.
export {};
