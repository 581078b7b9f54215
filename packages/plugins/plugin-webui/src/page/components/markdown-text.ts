// A reply's text as sanitised Markdown (@aalis/render-markdown: GFM, mended table separator rows, safe links),
// re-rendered in place as it streams (morphing keeps unchanged nodes), with code blocks highlighted by
// highlight.js and a 「复制代码」/"Copy code" button on each. Highlighting runs on the sanitised DOM: it reads each
// block's text and writes escaped spans. The buttons are added after every render (the morph removes what the
// Markdown does not have) and copy the block's text through one delegated click handler.
import { renderMarkdownInto } from '@aalis/render-markdown';
import { defineComponent, h, onMounted, onUpdated, ref } from 'vue';
import { preferences, t } from '../page-preferences.js';
import { copyText } from './copy-text.js';
import { highlightCodeBlocks } from './highlight-code.js';

const COPY_ICON =
  '<svg class="icon" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="M9 9h11v11H9zM5 15H4V4h11v1"/></svg>';

/** Puts a Copy code button in every code block that lacks one, labelled in the page's language. */
function addCopyButtons(root: HTMLElement): void {
  const label = t('webui-page.action.copyCode');
  for (const pre of root.querySelectorAll('pre')) {
    let button = pre.querySelector<HTMLButtonElement>(':scope > button.copy-code');
    if (!button) {
      button = root.ownerDocument.createElement('button');
      button.type = 'button';
      button.className = 'icon-button copy-code';
      button.dataset.testid = 'copy-code';
      // A fixed SVG of ours, no text from the reply.
      button.innerHTML = COPY_ICON;
      // Last, so the morph of the next render keeps the code element and only drops the button.
      pre.append(button);
    }
    button.setAttribute('aria-label', label);
    button.title = label;
  }
}

export const MarkdownText = defineComponent({
  name: 'MarkdownText',
  props: { text: { type: String, required: true } },
  setup(props) {
    const root = ref<HTMLElement | null>(null);
    let rendered: string | undefined;
    const render = () => {
      const element = root.value;
      if (!element) return;
      if (rendered !== props.text) {
        rendered = props.text;
        renderMarkdownInto(element, props.text);
        highlightCodeBlocks(element);
      }
      addCopyButtons(element);
    };
    const onClick = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest?.('button.copy-code');
      const code = button?.parentElement?.querySelector('code');
      if (!button || !code) return;
      void copyText(code.textContent ?? '').then((done) => {
        button.classList.toggle('copied', done);
        setTimeout(() => button.classList.remove('copied'), 1500);
      });
    };
    onMounted(render);
    onUpdated(render);
    // The text is a prop read in render, so Vue re-runs onUpdated when it changes (and when the language does, for
    // the buttons' labels); the element's children are owned by renderMarkdownInto, never by Vue.
    return () =>
      h('div', {
        ref: root,
        class: 'markdown',
        'data-text-length': props.text.length,
        'data-locale': preferences.locale,
        onClick,
      });
  },
});
