// How the budget views write amounts and shares: tokens as grouped integers, money with four decimals and its
// currency, a limit of 0 as 「不限」/"no limit", and the share of a limit used (capped for the bar, exact in text).
// Framework-free, so it is tested without a page.

export interface AmountFormat {
  unit: 'tokens' | 'money';
  currency: string;
  locale: string;
  /** The word for a limit of 0. */
  unlimited: string;
}

export function amountText(amount: number, format: AmountFormat): string {
  if (format.unit === 'money') return `${amount.toFixed(4)} ${format.currency}`;
  return Math.round(amount).toLocaleString(format.locale);
}

export function limitText(limit: number, format: AmountFormat): string {
  return limit > 0 ? amountText(limit, format) : format.unlimited;
}

/** The whole percent of the limit used; undefined without a limit. */
export function percentUsed(used: number, limit: number): number | undefined {
  if (!(limit > 0)) return undefined;
  return Math.floor((used / limit) * 100);
}

/** The bar's state: over the limit, past the warning line, or fine. */
export function budgetLevel(used: number, limit: number, warnAt: number): 'over' | 'warn' | 'ok' {
  if (!(limit > 0)) return 'ok';
  if (used >= limit) return 'over';
  return used >= limit * warnAt ? 'warn' : 'ok';
}

/** Reads what was typed as a limit: a finite number ≥ 0, or undefined when it is not one. */
export function parseLimit(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
