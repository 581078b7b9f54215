// The media requests (docs/session-protocol.md 「Voice replies」): one of her stored replies spoken by the host's
// text-to-speech endpoint, for the page's play button. Offered when hello.features.voiceOutput is true.

export interface MediaRequests {
  /**
   * Whoever may see the session: the stored reply `messageId` (an assistant message of the session) spoken, as
   * Ogg/Opus bytes in base64. Refused when the host has no text-to-speech endpoint (hello.features.voiceOutput).
   */
  'message.speech': {
    params: { sessionId: string; messageId: string };
    result: { mimeType: string; data: string };
  };
}

export const MEDIA_REQUESTS = ['message.speech'] as const;
