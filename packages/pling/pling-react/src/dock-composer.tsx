// The dock's input: a textarea where Enter sends and Shift+Enter starts a new line, a send button disabled while
// the text is blank, and — while a run is in progress — a stop button.
import type { DockTexts } from '@plingjs/core';
import { type FormEvent, type KeyboardEvent, useState } from 'react';

export interface DockComposerProps {
  texts: DockTexts;
  busy: boolean;
  onSend(text: string): void;
  onStop(): void;
}

export function DockComposer({ texts, busy, onSend, onStop }: DockComposerProps) {
  const [text, setText] = useState('');
  const blank = text.trim() === '';
  const submit = () => {
    if (blank) return;
    onSend(text);
    setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method is composing picks a candidate; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };
  return (
    <form className="pling-form" onSubmit={onSubmit}>
      <textarea
        data-pling="input"
        aria-label={texts.placeholder}
        placeholder={texts.placeholder}
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="pling-actions">
        {busy && (
          <button type="button" data-pling="stop" onClick={onStop}>
            {texts.stop}
          </button>
        )}
        <button type="submit" data-pling="send" disabled={blank}>
          {texts.send}
        </button>
      </div>
    </form>
  );
}
