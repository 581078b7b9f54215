// A new chat before its first message: a greeting and a few starter suggestions (a click sends one, as in
// Open WebUI). The composer below it is the one every conversation has; the session is created on the first send.
import { defineComponent, h, type PropType } from 'vue';
import { t } from '../page-preferences.js';
import type { PageTextKey } from '../texts.js';

const STARTERS: readonly PageTextKey[] = [
  'webui-page.newChat.starter1',
  'webui-page.newChat.starter2',
  'webui-page.newChat.starter3',
  'webui-page.newChat.starter4',
];

export const NewChat = defineComponent({
  name: 'NewChat',
  props: {
    canSend: { type: Boolean, required: true },
    onStarter: { type: Function as PropType<(text: string) => void>, required: true },
  },
  setup(props) {
    return () =>
      h('div', { class: 'conversation new-chat', 'data-testid': 'new-chat' }, [
        h('div', { class: 'new-chat-inner' }, [
          h('h2', { class: 'new-chat-heading' }, t('webui-page.newChat.heading')),
          h(
            'ul',
            { class: 'starters', 'aria-label': t('webui-page.newChat.starters'), 'data-testid': 'starters' },
            STARTERS.map((key) =>
              h(
                'li',
                { key },
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'starter',
                    disabled: !props.canSend,
                    'data-testid': 'starter',
                    onClick: () => props.onStarter(t(key)),
                  },
                  t(key),
                ),
              ),
            ),
          ),
        ]),
      ]);
  },
});
