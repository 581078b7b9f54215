// Removes provider special tokens that servers leak into reply text (DeepSeek tool-call / DSML markup,
// `<|im_end|>`-style chat-template tokens). Only removes; nothing is executed and no other text is rewritten.

/** Whole leaked tool-call blocks: DeepSeek's `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>` and DSML function calls. */
const LEAKED_BLOCKS: readonly RegExp[] = [
  /<｜tool▁calls▁begin｜>[\s\S]*?(?:<｜tool▁calls▁end｜>|$)/g,
  /<｜DSML｜function_calls>[\s\S]*?(?:<\/｜DSML｜function_calls>|$)/g,
];

/** Lone tokens: `<|name|>` (ASCII bars) and `<｜name｜>` (full-width bars, DeepSeek), and DSML tags. */
const LEAKED_TOKENS: readonly RegExp[] = [
  /<\|(?:im_start|im_end|im_sep|endoftext|eot_id|end_of_text|start_header_id|end_header_id|eom_id|fim_prefix|fim_middle|fim_suffix|begin_of_text|tool_call|tool_calls|assistant|user|system)\|>/g,
  /<｜[^<>｜\n]{1,64}｜>/g,
  /<\/?｜DSML｜[^<>\n]{0,64}>/g,
];

export function stripLeakedSpecialTokens(text: string): string {
  if (!text.includes('<')) return text;
  let result = text;
  for (const pattern of LEAKED_BLOCKS) result = result.replace(pattern, '');
  for (const pattern of LEAKED_TOKENS) result = result.replace(pattern, '');
  return result === text ? text : result.replace(/\s+$/, '');
}
