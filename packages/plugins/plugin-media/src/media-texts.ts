// Texts of plugin-media: the describing prompt, how a description is marked for the model, the describe_image
// tool, and the notes a person gets when an image could not be described.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const mediaTexts = defineCatalogue({
  'zh-CN': {
    'media.describe.prompt':
      '请为一个看不见图片的助手描述这张图片：先一句话说是什么，再写清楚里面的文字（原样照录）、人物、物体、数字、图表的数据与布局。只写看到的，不要猜测，不要寒暄。',
    'media.describe.question': '请看这张图片，回答：{question}\n只根据图片里看到的回答；看不出来就说看不出来。',
    'media.image.described': '图片 {id} 的描述（由 {model} 看图写成，不是原图）：{description}',
    'media.image.noVision': '图片 {id} 没有交给模型：配置的模型都不能看图，也没有写出描述。',
    'media.image.failed': '图片 {id} 没能描述：{reason}',
    'media.notice.noVision':
      '这里配置的模型都不能看图，你发的图片她看不到。要让她看图，请配置一个能看图的模型（模型的 capabilities.vision 设为 true），或用 plugins.media.describeModel 指定一个来描述图片。',
    'media.notice.failed': '图片 {name} 没能交给她：{reason} 消息的其余部分照常发出。',
    'media.tool.describe':
      '再看一眼对话里的一张图片，带着一个问题（如「牌子上写的什么」「第三行的数字是多少」）。图片 id 在图片的描述里（img_ 开头）。',
    'media.tool.describe.imageId': '图片 id，如 img_0123456789ab。',
    'media.tool.describe.question': '要在图片里看清楚的问题。',
    'media.voice.transcript': '[语音转写] {text}',
    'media.voice.silent': '[语音转写]（没有听出说话的内容）',
    'media.voice.attachment': '语音消息，已转写成文字，转写在消息正文里（以「[语音转写]」开头）。',
    'media.voice.notConfigured': '语音消息，没有转写：这里没有配置语音转文字。',
    'media.voice.failed': '语音消息，没能转写：{reason}',
    'media.notice.noTranscription':
      '这里没有配置语音转文字，你发的语音她听不到，请改发文字。要让她听语音，请在 plugins.media.transcription 里配置一个语音转文字服务（baseUrl、apiKey、model，兼容 OpenAI 的 /audio/transcriptions，也可以是本机的 whisper.cpp 服务）。',
    'media.notice.voiceFailed': '语音 {name} 没能转成文字：{reason} 消息的其余部分照常发出。',
    'media.notice.speechFailed': '这条回复没能配上语音：{reason} 文字回复照常发出。',
    'media.field.voiceReply': '语音回复',
    'media.field.voiceReply.description':
      '打开后，她的每条回复在能发语音的平台（QQ、Telegram、Discord、Slack、飞书、钉钉、Satori；企业微信智能机器人不能）上另附一条语音；网页里每条回复都有播放按钮。',
  },
  en: {
    'media.describe.prompt':
      'Describe this image for an assistant who cannot see it: first one sentence on what it is, then any text in it (verbatim), people, objects, numbers, and the data and layout of charts. Only what you see, no guessing, no pleasantries.',
    'media.describe.question':
      'Look at this image and answer: {question}\nAnswer only from what the image shows; if it does not show it, say so.',
    'media.image.described':
      'Description of image {id} (written by {model} from the image; not the image itself): {description}',
    'media.image.noVision':
      'Image {id} was not given to the model: no configured model can see images, and no description was made.',
    'media.image.failed': 'Image {id} could not be described: {reason}',
    'media.notice.noVision':
      'None of the configured models can see images, so she cannot see the images you send. To let her, configure a model that can (capabilities.vision: true on the model) or name one to describe images with plugins.media.describeModel.',
    'media.notice.failed':
      'The image {name} could not be given to her: {reason} The rest of the message was sent as usual.',
    'media.tool.describe':
      'Takes another look at an image from the conversation with a question ("what does the sign say?", "what is the number in the third row?"). The image id is in the image’s description (it starts with img_).',
    'media.tool.describe.imageId': 'The image id, like img_0123456789ab.',
    'media.tool.describe.question': 'What to make out in the image.',
    'media.voice.transcript': '[Voice, transcribed] {text}',
    'media.voice.silent': '[Voice, transcribed] (no speech was heard)',
    'media.voice.attachment':
      'A voice message, transcribed; the transcript is in the message text (it starts with "[Voice, transcribed]").',
    'media.voice.notConfigured': 'A voice message, not transcribed: no speech-to-text is configured here.',
    'media.voice.failed': 'A voice message that could not be transcribed: {reason}',
    'media.notice.noTranscription':
      'No speech-to-text is configured here, so she cannot hear the voice messages you send; please write instead. To let her, configure a speech-to-text service under plugins.media.transcription (baseUrl, apiKey, model; any OpenAI-compatible /audio/transcriptions, a local whisper.cpp server too).',
    'media.notice.voiceFailed':
      'The voice message {name} could not be turned into text: {reason} The rest of the message was sent as usual.',
    'media.notice.speechFailed': 'This reply could not be given a voice: {reason} The text reply was sent as usual.',
    'media.field.voiceReply': 'Voice replies',
    'media.field.voiceReply.description':
      'When on, each of her replies comes with a voice message on platforms that carry one (QQ, Telegram, Discord, Slack, Feishu/Lark, DingTalk, Satori; not WeCom’s intelligent bots); in the WebUI every reply has a play button.',
  },
});

export const mediaErrors = defineErrors({
  AALIS_MEDIA_NOT_AN_IMAGE: {
    'zh-CN': '它不是图片（内容不是 PNG、JPEG、GIF 或 WebP）。',
    en: 'it is not an image (its content is not PNG, JPEG, GIF or WebP).',
  },
  AALIS_MEDIA_IMAGE_TOO_LARGE: {
    'zh-CN': '它有 {size} 字节，超过了上限 plugins.media.maxImageBytes = {limit} 字节。',
    en: 'it has {size} bytes, over the limit plugins.media.maxImageBytes = {limit} bytes.',
  },
  AALIS_MEDIA_NO_IMAGE_DATA: {
    'zh-CN': '图片没有带内容。',
    en: 'the image carries no content.',
  },
  AALIS_MEDIA_NO_VISION_MODEL: {
    'zh-CN': '没有能看图的模型：请给一个模型写上 capabilities.vision: true，或设 plugins.media.describeModel。',
    en: 'no model can see images: set capabilities.vision: true on a model, or plugins.media.describeModel.',
  },
  AALIS_MEDIA_DESCRIBE_MODEL_UNKNOWN: {
    'zh-CN': 'plugins.media.describeModel 指定的模型 {model} 不在，已改用 {fallback}。',
    en: 'The model plugins.media.describeModel names, {model}, is not available; {fallback} is used instead.',
  },
  AALIS_MEDIA_DESCRIBE_FAILED: {
    'zh-CN': '描述图片的模型 {model} 出错了（{reason}）。',
    en: 'the model describing images, {model}, failed ({reason}).',
  },
  AALIS_MEDIA_NO_AUDIO_DATA: {
    'zh-CN': '语音没有带内容。',
    en: 'the recording carries no content.',
  },
  AALIS_MEDIA_AUDIO_TOO_LARGE: {
    'zh-CN': '它有 {size} 字节，超过了上限 plugins.media.transcription.maxAudioBytes = {limit} 字节。',
    en: 'it has {size} bytes, over the limit plugins.media.transcription.maxAudioBytes = {limit} bytes.',
  },
  AALIS_MEDIA_NOT_AUDIO: {
    'zh-CN': '它不是录音（内容的类型是 {type}）。',
    en: 'it is not a recording (its content is of type {type}).',
  },
  AALIS_MEDIA_AUDIO_CORRUPT: {
    'zh-CN': '这段 {format} 录音解不开（{reason}），可能已损坏。',
    en: 'this {format} recording cannot be decoded ({reason}); it may be damaged.',
  },
  AALIS_MEDIA_FFMPEG_MISSING: {
    'zh-CN': '{format} 格式的录音要先用 ffmpeg 转换，这台机器上没有 ffmpeg（Debian/Ubuntu：apt-get install ffmpeg）。',
    en: 'a {format} recording needs converting with ffmpeg, and this machine has no ffmpeg (Debian/Ubuntu: apt-get install ffmpeg).',
  },
  AALIS_MEDIA_TRANSCRIPTION_TIMEOUT: {
    'zh-CN': '语音转文字服务 {seconds} 秒内没有转完（上限 plugins.media.transcription.timeoutMs）。',
    en: 'the speech-to-text service did not finish within {seconds} s (the limit plugins.media.transcription.timeoutMs).',
  },
  AALIS_MEDIA_TRANSCRIPTION_UNREADABLE: {
    'zh-CN': '语音转文字服务的回答里没有转写文字（回答开头：{answer}）。',
    en: 'the speech-to-text service answered without a transcript (its answer began: {answer}).',
  },
  AALIS_MEDIA_TRANSCRIPTION_URL_INVALID: {
    'zh-CN':
      'plugins.media.transcription.baseUrl 不是可用的地址（{baseUrl}：{problem}）；应是 http:// 或 https:// 地址，例如 https://api.openai.com/v1。',
    en: 'plugins.media.transcription.baseUrl is not a usable URL ({baseUrl}: {problem}); it should be an http:// or https:// URL such as https://api.openai.com/v1.',
  },
  AALIS_MEDIA_SPEECH_URL_INVALID: {
    'zh-CN':
      'plugins.media.speech.baseUrl 不是可用的地址（{baseUrl}：{problem}）；应是 http:// 或 https:// 地址，例如 https://api.openai.com/v1。',
    en: 'plugins.media.speech.baseUrl is not a usable URL ({baseUrl}: {problem}); it should be an http:// or https:// URL such as https://api.openai.com/v1.',
  },
  AALIS_MEDIA_SPEECH_TOO_LARGE: {
    'zh-CN': '语音超过了上限 plugins.media.speech.maxAudioBytes = {limit} 字节。',
    en: 'the voice is over the limit plugins.media.speech.maxAudioBytes = {limit} bytes.',
  },
  AALIS_MEDIA_SPEECH_NOT_AUDIO: {
    'zh-CN': '文字转语音服务的回答不是音频（类型是 {type}）。',
    en: 'the text-to-speech service answered with something that is not audio (of type {type}).',
  },
  AALIS_MEDIA_SPEECH_TIMEOUT: {
    'zh-CN': '文字转语音服务 {seconds} 秒内没有说完（上限 plugins.media.speech.timeoutMs）。',
    en: 'the text-to-speech service did not finish within {seconds} s (the limit plugins.media.speech.timeoutMs).',
  },
  AALIS_MEDIA_SPEECH_NOT_CONFIGURED: {
    'zh-CN':
      '这里没有配置文字转语音：请在 plugins.media.speech 里配置一个（baseUrl、model、voice，兼容 OpenAI 的 /audio/speech）。',
    en: 'No text-to-speech is configured here: configure one under plugins.media.speech (baseUrl, model, voice; any OpenAI-compatible /audio/speech).',
  },
  AALIS_MEDIA_SPEECH_NOTHING_TO_SAY: {
    'zh-CN': '这段文字里没有能读出来的内容（只有代码或标记）。',
    en: 'There is nothing in this text to read aloud (only code or markup).',
  },
  AALIS_MEDIA_IMAGE_NOT_FOUND: {
    'zh-CN': '本会话的历史里没有图片 {id}。图片 id 在图片的描述里，以 img_ 开头。',
    en: 'This session’s history has no image {id}. The image id is in the image’s description and starts with img_.',
  },
});
