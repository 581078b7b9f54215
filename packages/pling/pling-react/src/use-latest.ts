// A ref that always holds the value of the last committed render, for callbacks the page layer calls later
// (action handlers, state getters), so they see the component's current state without being re-registered.
import { type RefObject, useLayoutEffect, useRef } from 'react';

export function useLatest<Value>(value: Value): RefObject<Value> {
  const ref = useRef(value);
  // Written after commit, not during render: a render React throws away must not leak into the ref.
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
