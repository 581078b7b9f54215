// Paging: cuts, page counts, the -p flag, and coded errors for invalid pages.
import { describe, expect, it } from 'vitest';
import { pageFromFlags, paginate } from './paginate.js';

const items = Array.from({ length: 25 }, (_, index) => index + 1);

describe('paginate', () => {
  it('cuts pages of pageSize and counts pages and items', () => {
    expect(paginate({ items, page: 1, pageSize: 10 })).toEqual({
      items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      page: 1,
      pages: 3,
      total: 25,
    });
    expect(paginate({ items, page: 3, pageSize: 10 }).items).toEqual([21, 22, 23, 24, 25]);
  });

  it('an empty list has one empty page', () => {
    expect(paginate({ items: [], page: 1 })).toEqual({ items: [], page: 1, pages: 1, total: 0 });
  });

  it('a page past the last is a coded error naming the page count', () => {
    expect(() => paginate({ items, page: 4, pageSize: 10 })).toThrow(
      expect.objectContaining({ code: 'AALIS_COMMAND_PAGE_OUT_OF_RANGE', details: { page: 4, pages: 3 } }),
    );
  });

  it('a page that is not an integer ≥ 1 is a coded error', () => {
    for (const page of [0, -1, 1.5, Number.NaN]) {
      expect(() => paginate({ items, page })).toThrow(expect.objectContaining({ code: 'AALIS_COMMAND_PAGE_INVALID' }));
    }
  });
});

describe('pageFromFlags', () => {
  it('reads -p <n> and --page <n>, defaulting to 1', () => {
    expect(pageFromFlags({})).toBe(1);
    expect(pageFromFlags({ p: '3' })).toBe(3);
    expect(pageFromFlags({ page: '2' })).toBe(2);
  });

  it('rejects anything but a whole number ≥ 1 with a clear coded error', () => {
    for (const flags of [{ p: 'x' }, { p: '0' }, { p: '-2' }, { p: '1.5' }, { p: true as const }]) {
      expect(() => pageFromFlags(flags)).toThrow(expect.objectContaining({ code: 'AALIS_COMMAND_PAGE_INVALID' }));
    }
  });
});
