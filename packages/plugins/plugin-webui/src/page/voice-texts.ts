// Texts of recording a voice message in the composer and of playing a reply aloud, in zh-CN and en, beside the
// page's other texts.
import { defineCatalogue } from '@aalis/core';
import { pageTranslator } from './page-translator.js';

/** A text of voice recording in the page's language. */
export const tv = pageTranslator(
  defineCatalogue({
    'zh-CN': {
      'webui-page.voice.record': '语音输入',
      'webui-page.voice.recordHint': '录一段话，转成文字发给她（录音作为附件一起发）',
      'webui-page.voice.stop': '停止录音',
      'webui-page.voice.recording': '正在录音 {seconds} 秒',
      'webui-page.voice.denied': '没能用麦克风：浏览器拒绝了，或这个页面不是 https / localhost 打开的。',
      'webui-page.voice.failed': '录音失败：{reason}',
      'webui-page.voice.empty': '没有录到声音，再试一次。',
      'webui-page.voice.fileName': '语音-{time}.webm',
      'webui-page.voice.play': '播放',
      'webui-page.voice.playing': '正在播放',
      'webui-page.voice.loading': '正在生成语音',
      'webui-page.voice.playFailed': '没能朗读：{reason}',
    },
    en: {
      'webui-page.voice.record': 'Voice input',
      'webui-page.voice.recordHint': 'Record a voice message; it is sent as text, with the recording attached',
      'webui-page.voice.stop': 'Stop recording',
      'webui-page.voice.recording': 'Recording {seconds} s',
      'webui-page.voice.denied':
        'The microphone could not be used: the browser refused, or this page was not opened over https or localhost.',
      'webui-page.voice.failed': 'Recording failed: {reason}',
      'webui-page.voice.empty': 'Nothing was recorded; try again.',
      'webui-page.voice.fileName': 'voice-{time}.webm',
      'webui-page.voice.play': 'Play',
      'webui-page.voice.playing': 'Playing',
      'webui-page.voice.loading': 'Making the voice',
      'webui-page.voice.playFailed': 'Could not read it aloud: {reason}',
    },
  }),
);
