// A Copy button (「复制」/"Copy"): copies the given text, shows a tick for a moment and says 「已复制」 to screen
// readers through a polite live region; its accessible name stays the same.
import { defineComponent, h, onBeforeUnmount, ref } from 'vue';
import { t } from '../page-preferences.js';
import { copyText } from './copy-text.js';
import { icon } from './icons.js';

/** How long the tick stays after a copy. */
const COPIED_MS = 1500;

export const CopyButton = defineComponent({
  name: 'CopyButton',
  props: {
    text: { type: String, required: true },
    testId: { type: String, required: false, default: 'copy' },
  },
  setup(props) {
    const copied = ref<boolean | 'failed'>(false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    onBeforeUnmount(() => clearTimeout(timer));
    const copy = async () => {
      copied.value = (await copyText(props.text)) ? true : 'failed';
      clearTimeout(timer);
      timer = setTimeout(() => (copied.value = false), COPIED_MS);
    };
    return () =>
      h(
        'button',
        {
          type: 'button',
          class: ['icon-button', 'message-action', copied.value === true ? 'copied' : ''],
          'aria-label': t('webui-page.action.copy'),
          title: t('webui-page.action.copy'),
          'data-testid': props.testId,
          onClick: () => void copy(),
        },
        [
          icon(copied.value === true ? 'check' : 'copy'),
          h(
            'span',
            { class: 'visually-hidden', role: 'status' },
            copied.value === true
              ? t('webui-page.action.copied')
              : copied.value === 'failed'
                ? t('webui-page.action.copyFailed')
                : '',
          ),
        ],
      );
  },
});
