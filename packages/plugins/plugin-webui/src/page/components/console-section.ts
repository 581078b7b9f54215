// A section of the console: its heading (the section's accessible name) with the section's actions beside it, then
// its content.
import { h, type VNode, type VNodeArrayChildren } from 'vue';

export function consoleSection(
  section: { id: string; testId: string; title: string; actions?: VNodeArrayChildren },
  content: VNodeArrayChildren,
): VNode {
  return h('section', { 'aria-labelledby': section.id, class: 'console-section', 'data-testid': section.testId }, [
    h('div', { class: 'section-head' }, [h('h2', { id: section.id }, section.title), ...(section.actions ?? [])]),
    ...content,
  ]);
}
