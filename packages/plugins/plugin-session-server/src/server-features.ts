// What the host can do beyond chat, told in the hello so a page offers only what works: recording a voice message
// only when the media plugin turns recordings into text, a play button on replies only when it can speak them.
import { media } from '@aalis/api-media';
import type { ServerFeatures } from '@aalis/session-client';
import type { ServerDeps } from './server-deps.js';

export function serverFeatures(deps: Pick<ServerDeps, 'services'>): ServerFeatures {
  const provider = deps.services.selected(media);
  return {
    voiceInput: provider?.impl.transcribes?.() === true,
    voiceOutput: provider?.impl.speaks?.() === true,
  };
}
