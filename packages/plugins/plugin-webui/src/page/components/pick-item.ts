// One entry of a page's pick list (the workflows, the people on the memory page): a button that selects it, marked
// as the current one while it is selected.
import { h, type VNode, type VNodeArrayChildren } from 'vue';

export function pickItem(
  { key, selected, testId, onPick }: { key: string; selected: boolean; testId: string; onPick: () => void },
  content: VNodeArrayChildren,
): VNode {
  return h('li', { key }, [
    h(
      'button',
      {
        type: 'button',
        class: ['workflow-item', selected ? 'selected' : ''],
        'aria-current': selected ? 'true' : undefined,
        'data-testid': testId,
        onClick: onPick,
      },
      content,
    ),
  ]);
}
