// <AgentDock>: the chat panel. One DockModel per mounted dock (disposed on unmount), its state bridged into Vue,
// rendered by renderDock. Props are read once, when the dock is set up: the runtime resolves its configuration
// once, so give the dock a new `key` to start over with other props.
import type { AgentConfig, RuntimeEvent } from '@plingjs/agent';
import { type DockPlacement, ensureDockStyles } from '@plingjs/core';
import { defineComponent, onMounted, onScopeDispose, type PropType, ref, watch } from 'vue';
import type { Pling } from './create-pling.js';
import { renderDock } from './dock-view.js';
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
  },
  emits: {
    /** Every runtime event of this dock's session (session events and text deltas). */
    'session-event': (event: RuntimeEvent) => typeof event === 'object',
  },
  setup(props, { emit }) {
    const pling = usePling(props.pling);
    const { model, state } = useDock({
      pling,
      title: props.title,
      config: props.config,
      debug: props.debug,
      sessionId: props.sessionId,
    });
    onScopeDispose(
      pling.onSessionEvent((event) => {
        if (event.sessionId === model.session.id) emit('session-event', event);
      }),
    );
    // Messages (and the streamed text) come in at the bottom: keep the newest in view.
    const messages = ref<HTMLElement | null>(null);
    onMounted(() => ensureDockStyles(messages.value?.ownerDocument));
    watch(
      state,
      () => {
        if (messages.value) messages.value.scrollTop = messages.value.scrollHeight;
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
        // A send while a reply is running waits for it (the session queues sends); outcomes arrive as events.
        void model.send(text);
      },
      clear: () => model.clear(),
      cancel: () => model.cancel(),
      approve: (id: string) => void model.approve(id),
      reject: (id: string) => void model.reject(id),
      resolveHandoff: (id: string) => void model.resolveHandoff(id),
    };
    return () =>
      renderDock({
        state: state.value,
        draft: draft.value,
        placement: props.placement,
        traceNumber,
        on,
        messagesRef: messages,
      });
  },
});
