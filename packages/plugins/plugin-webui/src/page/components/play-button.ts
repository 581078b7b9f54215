// The Play button (「播放」/"Play") on her replies: asks the host to speak the stored reply (message.speech, offered when
// hello.features.voiceOutput is true; named by its storage id, or by turn and segment when only live here) and plays the Ogg/Opus it answers; pressed again, it stops. The voice of a reply
// is kept for the page's life (a few, oldest dropped) so playing it again costs the host nothing. Its accessible name
// stays 「播放」; aria-pressed says whether it plays, a polite status says when the voice is being made or failed.
import { defineComponent, h, onBeforeUnmount, ref, shallowRef } from 'vue';
import { tv } from '../voice-texts.js';
import { icon } from './icons.js';

/** A reply of the open session: its storage id, or (while only its live text is here) its turn and segment. */
export type ReplyRef = { messageId: string } | { turnId: string; segment: number };

/** Speaks a stored reply of the open session: set by the shell when the host can speak, undefined otherwise. */
export type ReplySpeech = (reply: ReplyRef) => Promise<{ mimeType: string; data: string }>;
export const replySpeech = shallowRef<ReplySpeech | undefined>(undefined);

/** Voices kept (object URLs), by storage id; the oldest is released past this. */
const KEPT = 8;
const voices = new Map<string, string>();
let playing: { stop(): void } | undefined;

async function voiceUrl(speak: ReplySpeech, reply: ReplyRef): Promise<string> {
  const key = 'messageId' in reply ? reply.messageId : `${reply.turnId}#${reply.segment}`;
  const kept = voices.get(key);
  if (kept) return kept;
  const { mimeType, data } = await speak(reply);
  const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  voices.set(key, url);
  if (voices.size > KEPT) {
    const [oldest, oldUrl] = voices.entries().next().value as [string, string];
    voices.delete(oldest);
    URL.revokeObjectURL(oldUrl);
  }
  return url;
}

export const PlayButton = defineComponent({
  name: 'PlayButton',
  props: {
    /** The reply's storage id, when the page has it. */
    messageId: { type: String, required: false },
    /** Its turn and segment (the nth model call of the turn), for a reply the page has only live. */
    turnId: { type: String, required: false },
    segment: { type: Number, required: false, default: 0 },
  },
  setup(props) {
    const state = ref<'idle' | 'loading' | 'playing' | 'failed'>('idle');
    const problem = ref('');
    let current: { audio: HTMLAudioElement; cancelled: boolean; stop(): void } | undefined;
    const stop = () => current?.stop();
    onBeforeUnmount(stop);
    const play = async () => {
      if (current) return stop();
      const speak = replySpeech.value;
      if (!speak) return;
      // One voice at a time on the page.
      playing?.stop();
      state.value = 'loading';
      problem.value = '';
      const run = {
        audio: new Audio(),
        cancelled: false,
        stop() {
          run.cancelled = true;
          run.audio.pause();
          if (playing === run) playing = undefined;
          if (current === run) current = undefined;
          state.value = 'idle';
        },
      };
      current = run;
      playing = run;
      try {
        const reply: ReplyRef =
          props.messageId !== undefined
            ? { messageId: props.messageId }
            : { turnId: props.turnId ?? '', segment: props.segment };
        const url = await voiceUrl(speak, reply);
        if (run.cancelled) return;
        run.audio.src = url;
        run.audio.onended = () => run.stop();
        await run.audio.play();
        if (!run.cancelled) state.value = 'playing';
      } catch (error) {
        if (run.cancelled) return;
        run.stop();
        state.value = 'failed';
        problem.value = tv('webui-page.voice.playFailed', {
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    };
    return () =>
      h('span', { class: 'play-reply' }, [
        h(
          'button',
          {
            type: 'button',
            class: ['icon-button', 'message-action', state.value === 'playing' ? 'playing' : ''],
            'aria-label': tv('webui-page.voice.play'),
            title: tv('webui-page.voice.play'),
            'aria-pressed': state.value === 'playing' || state.value === 'loading' ? 'true' : 'false',
            'data-testid': 'play-reply',
            'data-state': state.value,
            onClick: () => void play(),
          },
          [icon(state.value === 'playing' ? 'stopSquare' : 'speaker')],
        ),
        h(
          'span',
          { class: state.value === 'failed' ? 'play-problem' : 'visually-hidden', role: 'status' },
          state.value === 'loading'
            ? tv('webui-page.voice.loading')
            : state.value === 'playing'
              ? tv('webui-page.voice.playing')
              : problem.value,
        ),
      ]);
  },
});
