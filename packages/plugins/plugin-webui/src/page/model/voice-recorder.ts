// Records one voice message from the microphone (MediaRecorder, Opus in WebM where the browser has it) into a File
// the composer attaches like a picked recording; the server's media plugin turns it into text. Bounded: a recording
// stops by itself at `maxMs` or when it would pass `maxBytes` (the server's attachment limit).

export type RecorderState = { kind: 'idle' } | { kind: 'recording'; startedAt: number } | { kind: 'stopping' };

export interface VoiceRecorderEnvironment {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createRecorder(stream: MediaStream): MediaRecorder;
  now(): number;
}

/** Whether this browser (and this page's origin: a secure context) can record at all. */
export function canRecord(scope: typeof globalThis = globalThis): boolean {
  return (
    typeof scope.MediaRecorder === 'function' &&
    typeof scope.navigator?.mediaDevices?.getUserMedia === 'function' &&
    scope.isSecureContext !== false
  );
}

const PREFERRED = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

export function browserEnvironment(): VoiceRecorderEnvironment {
  return {
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    createRecorder: (stream) => {
      const mimeType = PREFERRED.find((type) => MediaRecorder.isTypeSupported(type));
      return new MediaRecorder(stream, mimeType ? { mimeType } : {});
    },
    now: () => Date.now(),
  };
}

/** The file name's extension for a recording of this type. */
export function extensionOf(mimeType: string): string {
  if (mimeType.startsWith('audio/ogg')) return 'ogg';
  if (mimeType.startsWith('audio/mp4')) return 'm4a';
  return 'webm';
}

export class VoiceRecorder {
  state: RecorderState = { kind: 'idle' };
  private recorder: MediaRecorder | undefined;
  private stream: MediaStream | undefined;
  private chunks: Blob[] = [];
  private bytes = 0;
  private limitTimer: ReturnType<typeof setTimeout> | undefined;
  private finished: ((file: Blob | undefined) => void) | undefined;

  constructor(
    private readonly environment: VoiceRecorderEnvironment,
    private readonly limits: { maxMs: number; maxBytes: number },
    private readonly onChange: (state: RecorderState) => void,
  ) {}

  /** Asks for the microphone and starts; rejects when the person or the browser refuses it. */
  async start(): Promise<void> {
    if (this.state.kind !== 'idle') return;
    const stream = await this.environment.getUserMedia({ audio: true });
    const recorder = this.environment.createRecorder(stream);
    this.stream = stream;
    this.recorder = recorder;
    this.chunks = [];
    this.bytes = 0;
    recorder.addEventListener('dataavailable', (event: BlobEvent) => {
      if (event.data.size === 0) return;
      this.bytes += event.data.size;
      this.chunks.push(event.data);
      // Stopped short of the bound: the last second still arrives after stop().
      if (this.bytes >= this.limits.maxBytes * 0.9) void this.stop();
    });
    recorder.addEventListener('stop', () => {
      const type = recorder.mimeType || 'audio/webm';
      const blob = this.chunks.length > 0 ? new Blob(this.chunks, { type }) : undefined;
      this.release();
      this.finished?.(blob && blob.size <= this.limits.maxBytes ? blob : undefined);
      this.finished = undefined;
    });
    // A timeslice, so a long recording reaches its byte bound while it runs rather than at the end.
    recorder.start(1000);
    this.limitTimer = setTimeout(() => void this.stop(), this.limits.maxMs);
    this.set({ kind: 'recording', startedAt: this.environment.now() });
  }

  /** Stops and gives the recording (undefined when nothing was recorded or it ran past the byte bound). */
  stop(): Promise<Blob | undefined> {
    const recorder = this.recorder;
    if (!recorder || this.state.kind !== 'recording') return Promise.resolve(undefined);
    this.set({ kind: 'stopping' });
    return new Promise((resolve) => {
      this.finished = resolve;
      recorder.stop();
    });
  }

  /** Stops without keeping anything (the composer went away). */
  cancel(): void {
    this.finished = undefined;
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.release();
  }

  private release(): void {
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.limitTimer = undefined;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = undefined;
    this.recorder = undefined;
    this.set({ kind: 'idle' });
  }

  private set(state: RecorderState): void {
    this.state = state;
    this.onChange(state);
  }
}
