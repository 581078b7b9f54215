// The composer: a <textarea> (Enter sends, Shift+Enter a new line, nothing is sent mid-IME composition), image
// attachments (picked or pasted, checked against the server's limits, previewed), the `composer` fields beside it
// (the model …), and 「停止」/"Stop" while a turn runs. The text is cleared only once the server took the message.
import type { CommandView, Limits, ModelView, OutgoingAttachment } from '@aalis/session-client';
import { defineComponent, h, onBeforeUnmount, onMounted, type PropType, ref } from 'vue';
import {
  type AttachmentKind,
  type AttachmentNote,
  type AttachmentProblem,
  attachmentKind,
  attachmentNotes,
  checkFiles,
  formatBytes,
  type SendAttachment,
  type SendPreview,
} from '../model/attachment-checks.js';
import { type PaletteRow, paletteRows, pickedText } from '../model/command-palette.js';
import type { SettingState } from '../model/settings-model.js';
import { canRecord } from '../model/voice-recorder.js';
import { t } from '../page-preferences.js';
import { icon } from './icons.js';
import { renderComposerSetting, type SettingActions } from './setting-control.js';
import { VoiceButton } from './voice-button.js';

/** The recording bound when the server names none (older servers): what speech-to-text endpoints take. */
const DEFAULT_RECORDING_BYTES = 20 * 1024 * 1024;

interface Picked {
  file: File;
  kind: AttachmentKind;
  /** An object URL for an image's preview; none for other files. */
  url?: string;
}

function problemText(problem: AttachmentProblem): string {
  switch (problem.kind) {
    case 'size':
      return t('webui-page.composer.fileTooLarge', {
        name: problem.name,
        size: formatBytes(problem.size),
        limit: formatBytes(problem.limit),
      });
    case 'count':
      return t('webui-page.composer.tooManyFiles', { limit: problem.limit });
  }
}

function noteText(note: AttachmentNote): string {
  switch (note.kind) {
    case 'described':
      return t('webui-page.composer.imageDescribed', { model: note.model, describer: note.describer });
    case 'notSent':
      return t('webui-page.composer.imageNotSent', { model: note.model });
    case 'read':
      return t('webui-page.composer.fileRead', { names: note.names.join(t('webui-page.composer.nameSeparator')) });
  }
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export const Composer = defineComponent({
  name: 'MessageComposer',
  props: {
    running: { type: Boolean, required: true },
    writable: { type: Boolean, required: true },
    limits: { type: Object as PropType<Limits | undefined>, required: false },
    fields: { type: Array as PropType<readonly SettingState[]>, required: true },
    models: { type: Array as PropType<readonly ModelView[]>, required: true },
    settingActions: { type: Object as PropType<SettingActions>, required: true },
    /** The model that will answer (`<provider>/<model>`), for what the composer says about images. */
    modelId: { type: String, required: false },
    onSend: {
      type: Function as PropType<
        (text: string, attachments: SendAttachment[], previews: SendPreview[]) => Promise<boolean>
      >,
      required: true,
    },
    onStop: { type: Function as PropType<() => void>, required: true },
    /** The slash commands this account may run (the `/` palette); undefined until asked for. */
    commands: { type: Array as PropType<readonly CommandView[]>, required: false },
    /** The text starts with `/`: the palette needs the commands list. */
    onWantCommands: { type: Function as PropType<() => void>, required: false },
    /** ↑ in the empty composer: edit the last own message; true when there was one. */
    onEditLast: { type: Function as PropType<() => boolean>, required: false },
    /** The host turns voice recordings into text (hello.features.voiceInput): offer the microphone. */
    voiceInput: { type: Boolean, required: false },
  },
  setup(props) {
    const text = ref('');
    const picked = ref<Picked[]>([]);
    const problems = ref<string[]>([]);
    const busy = ref(false);
    const fileInput = ref<HTMLInputElement | null>(null);
    const textarea = ref<HTMLTextAreaElement | null>(null);
    /** The highlighted palette row, and whether Escape closed the palette for the text as it is. */
    const activeRow = ref(0);
    const paletteDismissed = ref<string | undefined>();
    const rows = () => (paletteDismissed.value === text.value ? undefined : paletteRows(props.commands, text.value));
    const pick = (row: PaletteRow) => {
      text.value = pickedText(row);
      activeRow.value = 0;
      textarea.value?.focus();
    };

    const dragging = ref(false);
    const add = (files: File[]) => {
      if (!props.writable || files.length === 0) return;
      const { accepted, problems: found } = checkFiles(files, picked.value.length, props.limits);
      picked.value = [
        ...picked.value,
        ...accepted.map((file) => {
          const kind = attachmentKind(file);
          return { file, kind, ...(kind === 'image' ? { url: URL.createObjectURL(file) } : {}) };
        }),
      ];
      problems.value = found.map(problemText);
    };
    const remove = (index: number) => {
      const [gone] = picked.value.splice(index, 1);
      if (gone?.url) URL.revokeObjectURL(gone.url);
      picked.value = [...picked.value];
    };
    const hasFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    // A conversation opened (a new chat, a session picked) is ready to type in.
    onMounted(() => {
      if (props.writable) textarea.value?.focus();
    });
    onBeforeUnmount(() => {
      for (const entry of picked.value) if (entry.url) URL.revokeObjectURL(entry.url);
    });

    const send = async () => {
      const message = text.value;
      if (busy.value || (message.trim() === '' && picked.value.length === 0)) return;
      const limit = props.limits?.maxMessageChars;
      if (limit !== undefined && message.length > limit) {
        problems.value = [t('webui-page.composer.tooLong', { length: message.length, limit })];
        return;
      }
      busy.value = true;
      problems.value = [];
      try {
        const files = picked.value;
        const attachments: SendAttachment[] = await Promise.all(
          files.map(async ({ file, kind }): Promise<SendAttachment> => {
            const data = await readAsDataUrl(file);
            return kind === 'image'
              ? { type: 'image', mimeType: file.type as OutgoingAttachment['mimeType'], data, name: file.name }
              : { type: kind, ...(file.type ? { mimeType: file.type } : {}), data, name: file.name };
          }),
        );
        const previews = files.map(({ url, file, kind }) => ({ ...(url ? { url } : {}), name: file.name, kind }));
        if (await props.onSend(message, attachments, previews)) {
          if (text.value === message) text.value = '';
          picked.value = [];
        }
      } finally {
        busy.value = false;
        textarea.value?.focus();
      }
    };

    const onKeydown = (event: KeyboardEvent) => {
      if (event.isComposing || event.keyCode === 229) return;
      const open = rows();
      if (open && open.length > 0) {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          const step = event.key === 'ArrowDown' ? 1 : open.length - 1;
          activeRow.value = (activeRow.value + step) % open.length;
          return;
        }
        if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
          const row = open[Math.min(activeRow.value, open.length - 1)];
          // A complete command name sends as typed; otherwise Enter completes it first.
          if (row && (event.key === 'Tab' || text.value !== `/${row.name}`)) {
            event.preventDefault();
            pick(row);
            return;
          }
        }
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          paletteDismissed.value = text.value;
          return;
        }
      }
      if (event.key === 'ArrowUp' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
        if (text.value === '' && picked.value.length === 0 && props.onEditLast?.()) event.preventDefault();
        return;
      }
      if (event.key !== 'Enter' || event.shiftKey) return;
      event.preventDefault();
      void send();
    };
    const onPaste = (event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length > 0) {
        event.preventDefault();
        add(files);
      }
    };

    const paletteOpen = () => (rows()?.length ?? 0) > 0;
    const renderPalette = () => {
      const open = rows();
      if (!open) return null;
      return h('div', { class: 'command-palette', 'data-testid': 'command-palette' }, [
        h('p', { class: 'command-palette-title', id: 'command-palette-title' }, t('webui-page.commands.title')),
        open.length === 0
          ? h('p', { class: 'placeholder' }, t('webui-page.commands.none'))
          : h(
              'ul',
              { id: 'command-palette', role: 'listbox', 'aria-labelledby': 'command-palette-title' },
              open.map((row, index) =>
                h(
                  'li',
                  {
                    key: row.name,
                    id: `command-option-${index}`,
                    role: 'option',
                    class: ['command-option', index === activeRow.value ? 'active' : ''],
                    'aria-selected': index === activeRow.value ? 'true' : 'false',
                    'data-testid': 'command-option',
                    'data-name': row.name,
                    // mousedown, not click: the textarea keeps the focus.
                    onMousedown: (event: MouseEvent) => {
                      event.preventDefault();
                      pick(row);
                    },
                  },
                  [
                    h('code', { class: 'command-usage' }, row.usage),
                    h('span', { class: 'command-description' }, row.description),
                  ],
                ),
              ),
            ),
      ]);
    };

    return () =>
      h(
        'form',
        {
          class: ['composer', dragging.value ? 'dragging' : ''],
          'data-testid': 'composer',
          // Files dropped anywhere on the composer are attached (as picked or pasted ones are).
          onDragover: (event: DragEvent) => {
            if (!props.writable || !hasFiles(event)) return;
            event.preventDefault();
            dragging.value = true;
          },
          onDragleave: (event: DragEvent) => {
            const next = event.relatedTarget as Node | null;
            if (!next || !(event.currentTarget as HTMLElement).contains(next)) dragging.value = false;
          },
          onDrop: (event: DragEvent) => {
            if (!hasFiles(event)) return;
            event.preventDefault();
            dragging.value = false;
            add([...(event.dataTransfer?.files ?? [])]);
          },
          onSubmit: (event: Event) => {
            event.preventDefault();
            void send();
          },
        },
        [
          problems.value.length === 0
            ? null
            : h(
                'ul',
                { class: 'composer-problems', role: 'alert' },
                problems.value.map((problem) => h('li', problem)),
              ),
          picked.value.length === 0
            ? null
            : h(
                'ul',
                { class: 'attachment-notes', role: 'status', 'data-testid': 'attachment-notes' },
                attachmentNotes(
                  picked.value.map((entry) => entry.file),
                  props.models,
                  props.modelId,
                ).map((note) => h('li', { 'data-kind': note.kind }, noteText(note))),
              ),
          picked.value.length === 0
            ? null
            : h(
                'ul',
                { class: 'previews' },
                picked.value.map((entry, index) =>
                  h('li', { key: `${index}-${entry.file.name}`, class: ['preview', `preview-${entry.kind}`] }, [
                    entry.url
                      ? h('img', { src: entry.url, alt: entry.file.name })
                      : h('span', { class: 'file-chip', 'data-testid': 'file-chip' }, [
                          icon('paperclip'),
                          h('span', { class: 'file-name' }, entry.file.name),
                          h('span', { class: 'muted' }, formatBytes(entry.file.size)),
                        ]),
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'preview-remove',
                        'aria-label': t('webui-page.composer.removeAttachment', { name: entry.file.name }),
                        title: t('webui-page.composer.removeAttachment', { name: entry.file.name }),
                        onClick: () => remove(index),
                      },
                      '×',
                    ),
                  ]),
                ),
              ),
          renderPalette(),
          h('label', { for: 'composer-text', class: 'visually-hidden' }, t('webui-page.composer.label')),
          h('textarea', {
            id: 'composer-text',
            'aria-autocomplete': 'list',
            'aria-controls': paletteOpen() ? 'command-palette' : undefined,
            'aria-activedescendant': paletteOpen() ? `command-option-${activeRow.value}` : undefined,
            ref: textarea,
            value: text.value,
            rows: 2,
            disabled: !props.writable,
            placeholder: props.writable ? t('webui-page.composer.placeholder') : t('webui-page.composer.readOnly'),
            'data-testid': 'composer-text',
            onInput: (event: Event) => {
              text.value = (event.target as HTMLTextAreaElement).value;
              activeRow.value = 0;
              if (text.value.startsWith('/')) props.onWantCommands?.();
            },
            onKeydown,
            onPaste,
          }),
          h('div', { class: 'composer-bar' }, [
            h('div', { class: 'composer-fields' }, [
              h('input', {
                ref: fileInput,
                type: 'file',
                multiple: true,
                class: 'visually-hidden',
                tabindex: -1,
                'aria-hidden': 'true',
                'data-testid': 'composer-file',
                onChange: (event: Event) => {
                  const input = event.target as HTMLInputElement;
                  add([...(input.files ?? [])]);
                  input.value = '';
                },
              }),
              h(
                'button',
                {
                  type: 'button',
                  class: 'icon-button',
                  disabled: !props.writable,
                  'aria-label': t('webui-page.composer.attach'),
                  title: t('webui-page.composer.attachHint'),
                  'data-testid': 'attach',
                  onClick: () => fileInput.value?.click(),
                },
                icon('paperclip'),
              ),
              props.voiceInput && canRecord()
                ? h(VoiceButton, {
                    disabled: !props.writable,
                    maxBytes: props.limits?.maxAttachmentBytes ?? DEFAULT_RECORDING_BYTES,
                    onRecorded: (file: File) => add([file]),
                    onProblem: (problem: string) => {
                      problems.value = [problem];
                    },
                  })
                : null,
              ...props.fields.map((state) => renderComposerSetting(state, props.models, props.settingActions)),
            ]),
            props.running
              ? h(
                  'button',
                  { type: 'button', class: 'button stop', 'data-testid': 'stop', onClick: () => props.onStop() },
                  t('webui-page.composer.stop'),
                )
              : null,
            h(
              'button',
              {
                type: 'submit',
                class: 'button primary',
                'data-testid': 'send',
                disabled: !props.writable || busy.value,
              },
              t('webui-page.composer.send'),
            ),
          ]),
        ],
      );
  },
});
