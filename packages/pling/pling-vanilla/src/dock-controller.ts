// What the DOM dock needs from its model: the DockModel of @plingjs/core satisfies it; tests and hosts may pass
// anything of the same shape.
import type { DockModel } from '@plingjs/core';

export type DockController = Pick<
  DockModel,
  | 'getSnapshot'
  | 'subscribe'
  | 'send'
  | 'cancel'
  | 'clear'
  | 'approve'
  | 'reject'
  | 'resolveHandoff'
  | 'retry'
  | 'setOpen'
>;
