// A reply's text as sanitised Markdown (@aalis/render-markdown: GFM, mended table separator rows, safe links),
// re-rendered in place as it streams (morphing keeps unchanged nodes), with code blocks highlighted by
// highlight.js. Highlighting runs on the sanitised DOM: it reads each block's text and writes escaped spans.
import { renderMarkdownInto } from '@aalis/render-markdown';
import { defineComponent, h, onMounted, onUpdated, ref } from 'vue';
import { highlightCodeBlocks } from './highlight-code.js';

export const MarkdownText = defineComponent({
  name: 'MarkdownText',
  props: { text: { type: String, required: true } },
  setup(props) {
    const root = ref<HTMLElement | null>(null);
    let rendered: string | undefined;
    const render = () => {
      const element = root.value;
      if (!element || rendered === props.text) return;
      rendered = props.text;
      renderMarkdownInto(element, props.text);
      highlightCodeBlocks(element);
    };
    onMounted(render);
    onUpdated(render);
    // The text is a prop read in render, so Vue re-runs onUpdated when it changes; the element's children are
    // owned by renderMarkdownInto, never by Vue.
    return () => h('div', { ref: root, class: 'markdown', 'data-text-length': props.text.length });
  },
});
