// A console view's model, made and kept the same way in every view: from the view's client and error wording,
// followed for the view's lifetime (useStore), loaded once the view is mounted (`loaded` runs after that first load,
// e.g. to fill the view's forms), and disposed with the view when it holds timers.
import type { SessionClient } from '@aalis/session-client';
import { onMounted, onUnmounted, type ShallowRef } from 'vue';
import type { Store } from './model/store.js';
import { useStore } from './use-store.js';

type DescribeError = (error: unknown) => string;

interface ConsoleModel {
  load(): Promise<void>;
  dispose?(): void;
}

export function useConsoleModel<S, M extends Store<S> & ConsoleModel>(
  props: { readonly client: SessionClient; readonly describeError: DescribeError },
  Model: new (client: SessionClient, describeError: DescribeError) => M & Store<S>,
  loaded?: () => void,
): { model: M; snapshot: Readonly<ShallowRef<S>> } {
  const model = new Model(props.client, props.describeError);
  const snapshot = useStore(model);
  onMounted(() => void model.load().then(loaded));
  onUnmounted(() => model.dispose?.());
  return { model, snapshot };
}
