// A chat message's text: an assistant's reply as sanitised Markdown, morphed in place as it streams (so nothing
// flickers; Vue renders no children into that element after its first text, so the morph owns it; server-rendered
// HTML shows that first text), the person's words as plain text.
import { renderDockMessageText, replyPlaceholderHtml } from '@plingjs/core';
import { defineComponent, h, onMounted, onUpdated, type PropType, ref } from 'vue';

export const MessageText = defineComponent({
  name: 'PlingMessageText',
  props: {
    role: { type: String as PropType<'user' | 'assistant'>, required: true },
    text: { type: String, required: true },
  },
  setup(props) {
    const element = ref<HTMLElement | null>(null);
    // Under a renderer without a DOM (a custom or test renderer) the reply is shown as plain text instead.
    const plain = ref(false);
    const paint = () => {
      if (!plain.value && element.value && props.role === 'assistant') renderDockMessageText(element.value, props);
    };
    onMounted(() => {
      if (typeof HTMLElement === 'undefined' || !(element.value instanceof HTMLElement)) plain.value = true;
      paint();
    });
    onUpdated(paint);
    // The first text as plain HTML, never changed after: what server-rendered HTML shows (and hydrates to); Vue
    // does not patch an unchanged innerHTML, so the morph owns the element from its first paint.
    const placeholder = replyPlaceholderHtml(props.text);
    return () =>
      props.role === 'user' || plain.value
        ? h('div', { class: 'pling-text', 'data-pling': 'text', 'data-format': 'text' }, props.text)
        : h('div', { ref: element, class: 'pling-text', 'data-pling': 'text', innerHTML: placeholder });
  },
});
