// A confirmation in a native modal <dialog>: focus moves into it and is trapped, Escape cancels, and the reader's
// focus returns where it was when it closes.
import { defineComponent, h, onMounted, type PropType, ref } from 'vue';
import { t } from '../page-preferences.js';

export const ConfirmDialog = defineComponent({
  name: 'ConfirmDialog',
  props: {
    title: { type: String, required: true },
    lines: { type: Array as PropType<string[]>, required: true },
    confirmLabel: { type: String, required: true },
    onAnswer: { type: Function as PropType<(confirmed: boolean) => void>, required: true },
  },
  setup(props) {
    const dialog = ref<HTMLDialogElement | null>(null);
    const returnFocus = document.activeElement as HTMLElement | null;
    const answer = (confirmed: boolean) => {
      dialog.value?.close();
      returnFocus?.focus();
      props.onAnswer(confirmed);
    };
    onMounted(() => dialog.value?.showModal());
    return () =>
      h(
        'dialog',
        {
          ref: dialog,
          class: 'dialog',
          'aria-labelledby': 'dialog-title',
          'data-testid': 'confirm-dialog',
          onCancel: (event: Event) => {
            event.preventDefault();
            answer(false);
          },
        },
        [
          h('h2', { id: 'dialog-title' }, props.title),
          ...props.lines.map((line) => h('p', line)),
          h('div', { class: 'dialog-actions' }, [
            h(
              'button',
              { type: 'button', class: 'button', autofocus: true, onClick: () => answer(false) },
              t('webui-page.cancel'),
            ),
            h(
              'button',
              { type: 'button', class: 'button danger', 'data-testid': 'confirm', onClick: () => answer(true) },
              props.confirmLabel,
            ),
          ]),
        ],
      );
  },
});
