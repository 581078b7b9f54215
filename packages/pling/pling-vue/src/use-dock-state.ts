// A DockModel's state as a reactive snapshot, for hosts that render their own dock.
import type { DockModel, DockState } from '@plingjs/core';
import type { ShallowRef } from 'vue';
import { useObservable } from './use-observable.js';

export function useDockState(model: DockModel): Readonly<ShallowRef<DockState>> {
  return useObservable(model);
}
