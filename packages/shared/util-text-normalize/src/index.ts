// @aalis/util-text-normalize: text normalisation shared by providers and the agent.

export { splitMessage } from './split-message.js';
export { stripLeakedSpecialTokens } from './strip-leaked-special-tokens.js';
