// A DockModel's state in a component: for hosts that build their own dock on DockModel (AgentDock uses it too).
import type { DockModel, DockState } from '@plingjs/core';
import { useObservable } from './use-observable.js';

export function useDockState(model: DockModel): DockState {
  return useObservable(model);
}
