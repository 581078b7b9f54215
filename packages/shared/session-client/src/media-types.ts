// The media requests (docs/session-protocol.md 「Voice replies」): one of her stored replies spoken by the host's
// text-to-speech endpoint, for the page's play button. Offered when hello.features.voiceOutput is true.

export interface MediaRequests {
  /**
   * Whoever may see the session: one of her stored replies spoken, as Ogg/Opus bytes in base64 — named by its storage
   * id (`messageId`, a timeline text's id), or by `turnId` and `segment` (the timeline's numbering) while the page has
   * only the live text. Refused when the host has no text-to-speech endpoint (hello.features.voiceOutput).
   */
  'message.speech': {
    params: { sessionId: string } & ({ messageId: string } | { turnId: string; segment: number });
    result: { mimeType: string; data: string };
  };
}

export const MEDIA_REQUESTS = ['message.speech'] as const;
