import { describe, expect, it } from 'vitest';
import {
  chatOfRoomKey,
  type InboundLabels,
  readMessage,
  roomKeyOf,
  type TelegramMessage,
  topicOf,
} from './telegram-inbound.js';

const labels: InboundLabels = {
  sticker: (emoji) => `[sticker ${emoji}]`,
  document: (name) => `[file ${name}]`,
  voice: '[voice]',
  video: '[video]',
  location: '[location]',
};
const me = { id: 4242, username: 'Aalis_Bot' };
const group = (text: string, extra: Partial<TelegramMessage> = {}): TelegramMessage => ({
  message_id: 1,
  from: { id: 7, first_name: 'Ann' },
  chat: { id: -100, type: 'supergroup' },
  text,
  ...extra,
});

describe('readMessage', () => {
  it('reads her mention and a command aimed at her from their entities', () => {
    expect(
      readMessage(group('@aalis_bot hi', { entities: [{ type: 'mention', offset: 0, length: 10 }] }), me, labels),
    ).toEqual({ text: 'hi', addressed: true });
    expect(
      readMessage(group('/stop@aalis_bot', { entities: [{ type: 'bot_command', offset: 0, length: 15 }] }), me, labels),
    ).toEqual({ text: '/stop', addressed: true });
  });

  it('reads them from the text when the message carries no entities', () => {
    expect(readMessage(group('@aalis_bot what time is it?'), me, labels)).toEqual({
      text: 'what time is it?',
      addressed: true,
    });
    expect(readMessage(group('hey @AALIS_BOT, hi'), me, labels)).toEqual({ text: 'hey , hi', addressed: true });
    expect(readMessage(group('/stop@aalis_bot'), me, labels)).toEqual({ text: '/stop', addressed: true });
    expect(readMessage(group('/stop@aalis_bot_two and @aalis_botty'), me, labels)).toEqual({
      text: '/stop@aalis_bot_two and @aalis_botty',
      addressed: false,
    });
    expect(readMessage(group('mail me at x@aalis_bot'), me, labels).addressed).toBe(false);
  });

  it('does not read the text again when the message has entities (Telegram found no mention of her)', () => {
    expect(
      readMessage(group('@aalis_bot hi', { entities: [{ type: 'bold', offset: 0, length: 2 }] }), me, labels).addressed,
    ).toBe(false);
  });
});

describe('forum topics', () => {
  it('a topic message is its topic; the reply to the topic creation is not a quote; a reply thread is no topic', () => {
    const root: TelegramMessage = { ...group('', { message_id: 9 }), forum_topic_created: { name: 'Trips' } };
    const read = topicOf(group('hi', { message_thread_id: 9, is_topic_message: true, reply_to_message: root }));
    expect(read.threadId).toBe(9);
    expect(read.topicName).toBe('Trips');
    expect(read.message.reply_to_message).toBeUndefined();
    const quoting = group('hi', {
      message_thread_id: 9,
      is_topic_message: true,
      reply_to_message: group('earlier', { message_id: 12, message_thread_id: 9 }),
    });
    expect(topicOf(quoting)).toMatchObject({ threadId: 9, message: { reply_to_message: { message_id: 12 } } });
    expect(topicOf(group('hi', { message_thread_id: 12 })).threadId).toBeUndefined();
  });

  it('a room key reads back into chat_id and message_thread_id', () => {
    expect(chatOfRoomKey(roomKeyOf(-1006, 77))).toEqual({ chat_id: -1006, message_thread_id: 77 });
    expect(chatOfRoomKey(roomKeyOf(-1006, undefined))).toEqual({ chat_id: -1006 });
  });
});

describe('readMessage: documents, audio and voice notes', () => {
  it('hands a document, an audio file and a voice note on to be fetched, keeping labels for those without a file_id', () => {
    expect(
      readMessage(
        group('', {
          text: undefined,
          caption: 'the report',
          document: { file_id: 'doc-1', file_name: 'report.pdf', mime_type: 'application/pdf' },
        }),
        me,
        labels,
      ),
    ).toEqual({
      text: 'the report',
      addressed: false,
      files: [{ type: 'file', fileId: 'doc-1', name: 'report.pdf', mimeType: 'application/pdf' }],
    });
    expect(readMessage(group('', { voice: { file_id: 'v-1', mime_type: 'audio/ogg' } }), me, labels).files).toEqual([
      { type: 'audio', fileId: 'v-1', name: 'voice.ogg', mimeType: 'audio/ogg' },
    ]);
    expect(readMessage(group('', { audio: { file_id: 'a-1', title: 'Song' } }), me, labels).files).toEqual([
      { type: 'audio', fileId: 'a-1', name: 'Song' },
    ]);
    expect(readMessage(group('', { voice: {}, document: { file_name: 'x.txt' } }), me, labels)).toEqual({
      text: '[file x.txt] [voice]',
      addressed: false,
    });
  });
});
