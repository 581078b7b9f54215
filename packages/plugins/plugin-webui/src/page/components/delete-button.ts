// The danger button that deletes something once the person confirms, with the browser's own dialog (the question
// names what goes), as the console's sections and the workflows page ask it.
import { h } from 'vue';

export function deleteButton({
  label,
  question,
  busy,
  remove,
}: {
  label: string;
  question: string;
  /** Disabled while a change is on its way. */
  busy?: boolean;
  remove: () => void;
}) {
  return h(
    'button',
    {
      type: 'button',
      class: 'button danger',
      disabled: busy,
      onClick: () => {
        if (window.confirm(question)) remove();
      },
    },
    label,
  );
}
