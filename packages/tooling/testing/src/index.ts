// @aalis/testing: test-only helpers — a scripted OpenAI-compatible HTTP server and App boot helpers.
// Never imported by product code.
export {
  blockTokens,
  type CacheUsage,
  PromptCache,
  promptBlocks,
} from './anthropic-prompt-cache.js';
export {
  type AnthropicTestServer,
  type AnthropicTestServerOptions,
  startAnthropicTestServer,
} from './anthropic-test-server.js';
export { type BootedApp, bootApp, type PluginEntry } from './boot-app.js';
export {
  type BotApiCall,
  type BotApiServer,
  type BotApiServerOptions,
  mentionEntity,
  startBotApiServer,
  telegramMessage,
} from './bot-api-server.js';
export { checkChatRequest, type RequestProblem } from './check-chat-request.js';
export { checkMessagesRequest } from './check-messages-request.js';
export {
  type DingtalkMessageOptions,
  type DingtalkSent,
  type DingtalkStreamServer,
  startDingtalkStreamServer,
} from './dingtalk-stream-server.js';
export {
  DISCORD_RATE_LIMITS,
  type DiscordChannelFixture,
  type DiscordFailure,
  type DiscordGuildFixture,
  type DiscordInteractionCall,
  type DiscordRequest,
  type DiscordSentMessage,
  type DiscordServer,
  type DiscordUser,
  startDiscordServer,
} from './discord-server.js';
export { hashedEmbedding, hashedEmbeddingWords } from './hashed-embedding.js';
export {
  decodeLarkFrame,
  encodeLarkFrame,
  type LarkCall,
  type LarkFrame,
  type LarkMessageOptions,
  type LarkSent,
  type LarkServer,
  startLarkServer,
} from './lark-server.js';
export {
  connectOneBotImplementation,
  type OneBotCall,
  type OneBotHttpImplementation,
  type OneBotImplementation,
  type OneBotImplementationOptions,
  type OneBotSentMessage,
  onebotFriendRequest,
  onebotGroupInvite,
  onebotGroupMessage,
  onebotPoke,
  onebotPrivateMessage,
  startOneBotHttpImplementation,
  startOneBotImplementation,
} from './onebot-implementation.js';
export {
  type OpenAiTestServer,
  type OpenAiTestServerOptions,
  type RecordedRequest,
  startOpenAiTestServer,
} from './openai-test-server.js';
export {
  type OtlpReceiver,
  type ReceivedExport,
  type ReceivedSpan,
  startOtlpReceiver,
} from './otlp-receiver.js';
export {
  type QqBotCall,
  type QqBotSent,
  type QqBotServer,
  type QqMessageOptions,
  startQqBotServer,
} from './qq-bot-server.js';
export {
  type SatoriApproval,
  type SatoriCall,
  type SatoriLoginInfo,
  type SatoriServer,
  startSatoriServer,
} from './satori-server.js';
export {
  type ErrorReply,
  errorReply,
  type ReplyOptions,
  type ScriptedReply,
  type StreamStep,
  textReply,
  toolCallReply,
} from './scripted-reply.js';
export {
  type SlackCall,
  type SlackMessageOptions,
  type SlackPosted,
  type SlackServer,
  startSlackServer,
} from './slack-server.js';
export {
  type SpeechFormat,
  type SpeechReply,
  type SpeechRequest,
  type SpeechTestServer,
  speechAudio,
  speechTone,
  startSpeechTestServer,
} from './speech-test-server.js';
export { startTestProxy, type TestProxy, type TestProxyOptions } from './test-proxy.js';
export {
  startTranscriptionTestServer,
  type TranscriptionReply,
  type TranscriptionRequest,
  type TranscriptionTestServer,
} from './transcription-test-server.js';
export {
  startWecomBotServer,
  type WecomBotServer,
  type WecomMessageOptions,
  type WecomSent,
  wecomDecrypt,
  wecomEncrypt,
} from './wecom-bot-server.js';
