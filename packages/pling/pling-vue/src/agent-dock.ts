// <AgentDock>: the chat panel. One DockModel per mounted dock (disposed on unmount), its state bridged into Vue,
// rendered by renderDock. Props are read once, when the dock is set up: the runtime resolves its configuration
// once, so give the dock a new `key` to start over with other props.
import type { AgentConfig, RuntimeEvent } from '@plingjs/agent';
import { ChatFollower, ConfirmationFocus, type DockPlacement, ensureDockStyles } from '@plingjs/core';
import {
  defineComponent,
  h,
  nextTick,
  onMounted,
  onScopeDispose,
  type PropType,
  ref,
  type SlotsType,
  type VNodeChild,
  watch,
} from 'vue';
import type { Pling } from './create-pling.js';
import { renderDock } from './dock-view.js';
import { ModelSettingsPanel } from './model-settings.js';
import { createTraceNumbering } from './trace-view.js';
import { useDock } from './use-dock.js';
import { usePling } from './use-pling.js';

export const AgentDock = defineComponent({
  name: 'AgentDock',
  props: {
    /** Header text and the dock's accessible name; default the locale's 「助手」 / "Assistant". */
    title: { type: String, default: undefined },
    /** The spec's component config: merged into the runtime's configuration when the runtime is created. */
    config: { type: Object as PropType<AgentConfig>, default: undefined },
    /** Shows the last `maxCalls` model requests in the recent-operations area. */
    debug: { type: Object as PropType<{ maxCalls: number }>, default: undefined },
    /** A fixed dock's first state on a page where the person has not opened or closed it yet (default true). */
    defaultOpen: { type: Boolean, default: true },
    /** The session this dock shows (default 'default'). */
    sessionId: { type: String, default: undefined },
    /** An explicit instance; default the one `app.use(pling)` provided. */
    pling: { type: Object as PropType<Pling>, default: undefined },
    /** 'fixed' (default): a panel at the bottom right of the viewport; 'inline': fills the parent element. */
    placement: {
      type: String as PropType<DockPlacement>,
      default: 'fixed',
      validator: (value: string) => value === 'fixed' || value === 'inline',
    },
    /** Show the model settings panel; default: when createPling was given `modelSettings`. */
    modelSettings: { type: Boolean, default: undefined },
  },
  emits: {
    /** Every runtime event of this dock's session (session events and text deltas). */
    'session-event': (event: RuntimeEvent) => typeof event === 'object',
  },
  slots: Object as SlotsType<{
    /** The dock's model settings, shown in the panel under the header. */
    settings?: () => VNodeChild;
  }>,
  setup(props, { emit, slots }) {
    const pling = usePling(props.pling);
    const { model, state } = useDock({
      pling,
      title: props.title,
      config: props.config,
      debug: props.debug,
      sessionId: props.sessionId,
      defaultOpen: props.defaultOpen,
      modelSettings: props.modelSettings,
    });
    onScopeDispose(
      pling.onSessionEvent((event) => {
        if (event.sessionId === model.session.id) emit('session-event', event);
      }),
    );
    // Messages (and the streamed text) come in at the bottom: keep the newest in view while the person is at the
    // bottom, not once they scrolled up to reread something.
    const messages = ref<HTMLElement | null>(null);
    const root = ref<HTMLElement | null>(null);
    const follower = new ChatFollower();
    const confirmationFocus = new ConfirmationFocus();
    onMounted(() => {
      ensureDockStyles(root.value?.ownerDocument);
      follower.attach(messages.value);
    });
    onScopeDispose(() => follower.detach());
    watch(
      state,
      (current) => {
        follower.attach(messages.value);
        follower.update();
        if (props.placement === 'inline' || current.open) {
          confirmationFocus.update(
            root.value,
            current.confirmations.map((request) => request.id),
          );
        }
      },
      { flush: 'post' },
    );

    const draft = ref('');
    const traceNumber = createTraceNumbering();
    const on = {
      input: (text: string) => {
        draft.value = text;
      },
      submit: () => {
        const text = draft.value;
        if (text.trim() === '') return;
        draft.value = '';
        follower.pin();
        // A send while a reply is running waits for it (the session queues sends); outcomes arrive as events.
        void model.send(text);
      },
      clear: () => model.clear(),
      cancel: () => model.cancel(),
      approve: (id: string) => void model.approve(id),
      reject: (id: string) => void model.reject(id),
      resolveHandoff: (id: string) => void model.resolveHandoff(id),
      retry: () => {
        follower.pin();
        void model.retry();
      },
      setOpen: (open: boolean) => {
        model.setOpen(open);
        // Focus follows: into the opened panel's input, or back to the launcher.
        void nextTick().then(() =>
          root.value?.querySelector<HTMLElement>(open ? '[data-pling="input"]' : '[data-pling="launcher"]')?.focus(),
        );
      },
    };
    return () =>
      renderDock({
        state: state.value,
        draft: draft.value,
        placement: props.placement,
        traceNumber,
        on,
        messagesRef: messages,
        rootRef: root,
        settings:
          slots.settings?.() ??
          (model.modelSettings ? h(ModelSettingsPanel, { settings: model.modelSettings }) : undefined),
      });
  },
});
