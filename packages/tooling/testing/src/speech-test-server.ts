// A scripted OpenAI-compatible text-to-speech server on 127.0.0.1: POST <url>/audio/speech with OpenAI's JSON body
// ({ model, input, voice, response_format, speed }), answering real audio — a tone as long as the text, made as WAV
// and encoded by Debian's ffmpeg into the asked format (mp3, opus in Ogg, aac, flac), as OpenAI answers. A server that
// speaks only one format (many local ones answer WAV whatever is asked) is `answerFormat`.
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

export interface SpeechRequest {
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: Record<string, unknown> | undefined;
  model: string | undefined;
  input: string | undefined;
  voice: string | undefined;
  responseFormat: string | undefined;
  /** Milliseconds from the request's arrival to the audio being sent (the provider's time, encoding included). */
  serverMs?: number;
}

export type SpeechReply =
  /** Another status with an OpenAI-shaped error body. */
  | { status: number; message: string }
  /** Never answers (until the server closes). */
  | { hang: true }
  /** 200 with these bytes and content type. */
  | { bytes: Uint8Array; contentType: string };

export interface SpeechTestServer {
  /** The API root, `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: SpeechRequest[];
  /** Replies for the next requests, in order; with none queued, the request is spoken. */
  enqueue(...replies: SpeechReply[]): void;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
const FFMPEG_OUTPUT: Partial<Record<SpeechFormat, string[]>> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '32k', '-f', 'mp3'],
  opus: ['-c:a', 'libopus', '-b:a', '24k', '-f', 'ogg'],
  aac: ['-c:a', 'aac', '-b:a', '32k', '-f', 'adts'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};
const RATE = 24_000;
/** OpenAI refuses longer inputs. */
const MAX_INPUT = 4_096;

/** 16-bit mono PCM at 24 kHz (OpenAI's pcm format): a 440 Hz tone, 60 ms per character, 0.3–4 s. */
export function speechTone(input: string): Buffer {
  const seconds = Math.min(4, Math.max(0.3, input.length * 0.06));
  const samples = Math.round(RATE * seconds);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / RATE)), i * 2);
  return pcm;
}

function wav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

function encode(input: Buffer, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', ...args, 'pipe:1'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg exit ${code}: ${errors}`)),
    );
    child.stdin.end(input);
  });
}

/** The spoken input in `format`: WAV and PCM made here, the others encoded by ffmpeg. */
export async function speechAudio(input: string, format: SpeechFormat): Promise<Buffer> {
  const pcm = speechTone(input);
  if (format === 'pcm') return pcm;
  if (format === 'wav') return wav(pcm);
  return encode(wav(pcm), FFMPEG_OUTPUT[format]!);
}

export async function startSpeechTestServer({
  answerFormat,
}: {
  /** Answer in this format whatever is asked (a server that speaks only WAV, say). */
  answerFormat?: SpeechFormat;
} = {}): Promise<SpeechTestServer> {
  const queue: SpeechReply[] = [];
  const requests: SpeechRequest[] = [];
  const server = createServer(async (req, res) => {
    const arrived = performance.now();
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const invalid = (message: string) => send(400, { error: { message, type: 'invalid_request_error' } });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
      send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const field = (name: string) => (typeof body?.[name] === 'string' ? (body[name] as string) : undefined);
    const request: SpeechRequest = {
      headers: req.headers,
      body,
      model: field('model'),
      input: field('input'),
      voice: field('voice'),
      responseFormat: field('response_format'),
    };
    requests.push(request);
    if (!body) return invalid('We could not parse the JSON body of your request.');
    if (!request.model || request.input === undefined || !request.voice)
      return invalid("'model', 'input' and 'voice' are required");
    if (request.input.length > MAX_INPUT)
      return invalid(`'input' is longer than ${MAX_INPUT} characters (${request.input.length})`);
    const asked = (request.responseFormat ?? 'mp3') as SpeechFormat;
    if (!(asked in CONTENT_TYPES)) return invalid(`'response_format' ${asked} is not supported`);
    const reply = queue.shift();
    if (reply && 'hang' in reply) return;
    if (reply && 'status' in reply) {
      send(reply.status, { error: { message: reply.message, type: 'server_error' } });
      return;
    }
    const format = answerFormat ?? asked;
    const audio = reply ? { bytes: reply.bytes, contentType: reply.contentType } : undefined;
    const bytes = audio?.bytes ?? (await speechAudio(request.input, format));
    request.serverMs = performance.now() - arrived;
    res.writeHead(200, { 'content-type': audio?.contentType ?? CONTENT_TYPES[format] });
    res.end(Buffer.from(bytes));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
