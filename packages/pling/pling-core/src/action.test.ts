import { describe, expect, it } from 'vitest';
import { assertActionId, defineAction, requiresConfirmation } from './action.js';
import { PageError } from './errors.js';

const base = { description: 'Deletes an order', parameters: { type: 'object' }, handler: () => 'ok' };

describe('defineAction', () => {
  it('returns the declaration frozen', () => {
    const action = defineAction({ id: 'delete_order', ...base, danger: true });
    expect(Object.isFrozen(action)).toBe(true);
    expect(action.id).toBe('delete_order');
  });

  it('action ids must be model tool-name safe; the error suggests a safe id', () => {
    for (const id of ['add_todo', 'a', 'Order-2', 'x'.repeat(64)]) expect(() => assertActionId(id)).not.toThrow();
    for (const id of ['', 'delete order', 'orders.delete', 'x'.repeat(65), 'löschen']) {
      expect(() => defineAction({ id, ...base })).toThrow(PageError);
    }
    expect(() => assertActionId('orders.delete', 'en')).toThrow(/INVALID_ACTION_ID.*"orders_delete"/);
    expect(() => assertActionId('orders.delete')).toThrow(/INVALID_ACTION_ID: 动作 id .*例如 "orders_delete"/);
    expect(() => assertActionId(7)).toThrow(/INVALID_ACTION_ID/);
  });

  it('says how to fix a missing description, a non-object schema, a missing handler or an unknown policy', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ description: ' ' }, /needs a description/],
      [{ parameters: { type: 'string' } }, /JSON Schema object/],
      [{ handler: undefined }, /needs a handler/],
      [{ confirm: 'sometimes' }, /'always', 'never', 'danger' or a function/],
      [{ danger: 'yes' }, /non-boolean danger/],
    ];
    for (const [override, message] of cases) {
      const definition = { id: 'act', ...base, ...override } as Parameters<typeof defineAction>[0];
      expect(() => defineAction(definition, 'en')).toThrow(message);
      try {
        defineAction(definition);
      } catch (error) {
        expect(PageError.isInstance(error) && error.code).toBe('INVALID_ACTION');
      }
    }
  });
});

describe('confirm policy (动作未声明 confirm 时的默认策略)', () => {
  const plain = defineAction({ id: 'plain', ...base });
  const dangerous = defineAction({ id: 'dangerous', ...base, danger: true });

  it("without confirm the runtime's defaultApproval applies: 'danger' confirms only actions marked danger", () => {
    expect(requiresConfirmation(plain, {}, 'danger')).toBe(false);
    expect(requiresConfirmation(dangerous, {}, 'danger')).toBe(true);
    expect(requiresConfirmation(plain, {}, 'always')).toBe(true);
    expect(requiresConfirmation(dangerous, {}, 'never')).toBe(false);
  });

  it("the action's own confirm wins over the default; a function decides per call", () => {
    const never = defineAction({ id: 'n', ...base, danger: true, confirm: 'never' });
    const always = defineAction({ id: 'a', ...base, confirm: 'always' });
    const large = defineAction({ id: 'l', ...base, confirm: (args) => Number(args.amount) > 100 });
    expect(requiresConfirmation(never, {}, 'always')).toBe(false);
    expect(requiresConfirmation(always, {}, 'never')).toBe(true);
    expect(requiresConfirmation(large, { amount: 500 }, 'never')).toBe(true);
    expect(requiresConfirmation(large, { amount: 5 }, 'always')).toBe(false);
  });
});
