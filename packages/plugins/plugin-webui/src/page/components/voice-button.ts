// The composer's microphone: records a voice message and hands it over as an attached recording (sent with the
// next send, turned into text by the host's media plugin). Shown only when the host transcribes and the browser can
// record; while recording it shows the seconds and becomes the stop button.
import { defineComponent, h, onBeforeUnmount, type PropType, ref } from 'vue';
import { browserEnvironment, extensionOf, type RecorderState, VoiceRecorder } from '../model/voice-recorder.js';
import { tv } from '../voice-texts.js';
import { icon } from './icons.js';

/** The longest recording: the speech-to-text endpoints take files of about this length and size. */
const MAX_MS = 5 * 60_000;

export const VoiceButton = defineComponent({
  name: 'VoiceButton',
  props: {
    disabled: { type: Boolean, required: true },
    /** The server's limit on one attachment's bytes. */
    maxBytes: { type: Number, required: true },
    onRecorded: { type: Function as PropType<(file: File) => void>, required: true },
    onProblem: { type: Function as PropType<(text: string) => void>, required: true },
  },
  setup(props) {
    const state = ref<RecorderState>({ kind: 'idle' });
    const seconds = ref(0);
    let ticker: ReturnType<typeof setInterval> | undefined;
    const recorder = new VoiceRecorder(browserEnvironment(), { maxMs: MAX_MS, maxBytes: props.maxBytes }, (next) => {
      state.value = next;
      if (next.kind === 'recording') {
        seconds.value = 0;
        ticker = setInterval(() => {
          seconds.value = Math.floor((Date.now() - next.startedAt) / 1000);
        }, 250);
      } else if (ticker) {
        clearInterval(ticker);
        ticker = undefined;
      }
    });
    onBeforeUnmount(() => {
      recorder.cancel();
      if (ticker) clearInterval(ticker);
    });

    const stamp = () => {
      const now = new Date();
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
    };
    const toggle = async () => {
      if (state.value.kind === 'recording') {
        const blob = await recorder.stop();
        if (!blob) {
          props.onProblem(tv('webui-page.voice.empty'));
          return;
        }
        const name = tv('webui-page.voice.fileName', { time: stamp() }).replace(/webm$/, extensionOf(blob.type));
        props.onRecorded(new File([blob], name, { type: blob.type.split(';')[0] || 'audio/webm' }));
        return;
      }
      if (state.value.kind !== 'idle') return;
      try {
        await recorder.start();
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        props.onProblem(
          name === 'NotAllowedError' || name === 'SecurityError'
            ? tv('webui-page.voice.denied')
            : tv('webui-page.voice.failed', { reason: error instanceof Error ? error.message : String(error) }),
        );
      }
    };

    return () => {
      const recording = state.value.kind === 'recording';
      return h('span', { class: 'voice-input' }, [
        h(
          'button',
          {
            type: 'button',
            class: ['icon-button', { recording }],
            disabled: props.disabled || state.value.kind === 'stopping',
            'aria-label': recording ? tv('webui-page.voice.stop') : tv('webui-page.voice.record'),
            'aria-pressed': recording ? 'true' : 'false',
            title: recording ? tv('webui-page.voice.stop') : tv('webui-page.voice.recordHint'),
            'data-testid': 'voice',
            onClick: () => void toggle(),
          },
          icon(recording ? 'stopSquare' : 'mic'),
        ),
        recording
          ? h(
              'span',
              { class: 'voice-elapsed', role: 'status', 'aria-live': 'polite' },
              tv('webui-page.voice.recording', { seconds: seconds.value }),
            )
          : null,
      ]);
    };
  },
});
