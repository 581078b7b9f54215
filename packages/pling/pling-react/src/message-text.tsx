// A chat message's text: an assistant's reply as sanitised Markdown, morphed in place as it streams (so nothing
// flickers; React renders no children into that element, so the morph owns it), the person's words as plain text.
import { renderDockMessageText, replyPlaceholderHtml } from '@plingjs/core';
import { useLayoutEffect, useRef, useState } from 'react';

export function MessageText({ role, text }: { role: 'user' | 'assistant'; text: string }) {
  if (role === 'user') {
    return (
      <div className="pling-text" data-pling="text" data-format="text">
        {text}
      </div>
    );
  }
  return <ReplyText text={text} />;
}

function ReplyText({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // The first text as plain HTML, never changed after: what server-rendered HTML shows (and hydrates to); React
  // then leaves the element's content alone and the morph replaces it before the first paint.
  const [placeholder] = useState(() => ({ __html: replyPlaceholderHtml(text) }));
  useLayoutEffect(() => {
    if (ref.current) renderDockMessageText(ref.current, { role: 'assistant', text });
  }, [text]);
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped plain text (replyPlaceholderHtml), set once.
    <div className="pling-text" data-pling="text" ref={ref} dangerouslySetInnerHTML={placeholder} />
  );
}
