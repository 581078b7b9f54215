// @aalis/util-text-normalize: text normalisation shared by providers and the agent.
export { stripLeakedSpecialTokens } from './strip-leaked-special-tokens.js';
