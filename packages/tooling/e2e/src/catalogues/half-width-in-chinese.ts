// Finds half-width , : ; ( ) written inside Chinese text: the character just before or just after it is Chinese
// (a Han character or Chinese punctuation); for a bracket, the nearest one outside it that is not a space, so
// 「模型 (offline)」 counts as well as 「模型:」. Code, key names and URLs beside Chinese keep their own punctuation
// because what touches the mark there is Latin ("plugins.llm-offline: false", "http://…").

const CHINESE = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u;
const HALF_WIDTH = new Set([',', ':', ';', '(', ')']);

/** Each offending mark with a few characters around it, for a readable failure. */
export function halfWidthInChinese(text: string): string[] {
  const found: string[] = [];
  for (let index = 0; index < text.length; index++) {
    if (!HALF_WIDTH.has(text[index]!)) continue;
    const mark = text[index];
    const before = (mark === '(' ? text.slice(0, index).trimEnd() : text.slice(0, index)).at(-1) ?? '';
    const after = (mark === ')' ? text.slice(index + 1).trimStart() : text.slice(index + 1))[0] ?? '';
    if (CHINESE.test(before) || CHINESE.test(after)) found.push(text.slice(Math.max(0, index - 6), index + 7));
  }
  return found;
}
